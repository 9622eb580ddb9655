// The closed network solved for a request: debounced, so the curve follows typing without a
// request per keystroke; the previous curve stays drawn while the next one is solved.
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { AnalysisService, type NetworkModelRequest } from "@/api";
import { useDebounced } from "@/lib/hooks/useDebounced";
import { queryKeys } from "@/lib/queryKeys";

const SOLVE_DEBOUNCE_MS = 250;

async function solveNetwork(body: NetworkModelRequest) {
  const { data } = await AnalysisService.solveNetworkModel({ body, throwOnError: true });
  return data;
}

export function useSolveNetworkQuery(body: NetworkModelRequest | null) {
  const debounced = useDebounced(body, SOLVE_DEBOUNCE_MS);
  const query = useQuery({
    queryKey: queryKeys.models.network(debounced as NetworkModelRequest),
    queryFn: () => solveNetwork(debounced as NetworkModelRequest),
    enabled: debounced !== null,
    placeholderData: keepPreviousData,
    retry: false,
  });
  return { solved: query.data, error: query.error, isFetching: query.isFetching } as const;
}
