// Every configuration of the compared experiments with its metric means (parallel coordinates).
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { CompareService, type ConfigurationsRequest } from "@/api";
import { queryKeys } from "@/lib/queryKeys";

async function fetchConfigurations(body: ConfigurationsRequest) {
  const { data } = await CompareService.compareConfigurations({ body, throwOnError: true });
  return data;
}

export function useGetCompareConfigurationsQuery(request: ConfigurationsRequest | null) {
  const query = useQuery({
    queryKey: queryKeys.compare.configurations(request ?? { experiment_ids: [] }),
    queryFn: () => fetchConfigurations(request as ConfigurationsRequest),
    enabled: request !== null,
    placeholderData: keepPreviousData,
  });
  return { configurations: query.data, isLoading: query.isLoading, error: query.error } as const;
}
