// Differences against the base with their confidence intervals and verdicts (computed once,
// on the server).
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { CompareService, type DifferencesRequest } from "@/api";
import { queryKeys } from "@/lib/queryKeys";

async function fetchDifferences(body: DifferencesRequest) {
  const { data } = await CompareService.compareDifferences({ body, throwOnError: true });
  return data;
}

export function useGetDifferencesQuery(request: DifferencesRequest | null) {
  const query = useQuery({
    queryKey: queryKeys.compare.differences(request ?? { experiment_ids: [] }),
    queryFn: () => fetchDifferences(request as DifferencesRequest),
    enabled: request !== null,
    placeholderData: keepPreviousData,
  });
  return { differences: query.data, isLoading: query.isLoading, error: query.error } as const;
}
