// Design, parameters, testbed and tool versions of the compared experiments, side by side.
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { type CompareSelection, CompareService } from "@/api";
import { queryKeys } from "@/lib/queryKeys";

async function fetchParameters(body: CompareSelection) {
  const { data } = await CompareService.compareParameters({ body, throwOnError: true });
  return data;
}

export function useGetCompareParametersQuery(selection: CompareSelection | null) {
  const query = useQuery({
    queryKey: queryKeys.compare.parameters(selection ?? { experiment_ids: [] }),
    queryFn: () => fetchParameters(selection as CompareSelection),
    enabled: selection !== null,
    placeholderData: keepPreviousData,
  });
  return { parameters: query.data, isLoading: query.isLoading, error: query.error } as const;
}
