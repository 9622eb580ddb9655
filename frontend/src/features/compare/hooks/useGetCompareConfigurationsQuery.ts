// Every configuration of the compared experiments with its metric means (parallel coordinates).
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { type CompareSelection, CompareService } from "@/api";
import { queryKeys } from "@/lib/queryKeys";

async function fetchConfigurations(body: CompareSelection) {
  const { data } = await CompareService.compareConfigurations({ body, throwOnError: true });
  return data;
}

export function useGetCompareConfigurationsQuery(selection: CompareSelection | null) {
  const query = useQuery({
    queryKey: queryKeys.compare.configurations(selection ?? { experiment_ids: [] }),
    queryFn: () => fetchConfigurations(selection as CompareSelection),
    enabled: selection !== null,
    placeholderData: keepPreviousData,
  });
  return { configurations: query.data, isLoading: query.isLoading, error: query.error } as const;
}
