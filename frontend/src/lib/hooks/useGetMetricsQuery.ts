// The results core's metric table (names, labels, units, which side reports each).
import { useQuery } from "@tanstack/react-query";
import { ParametersService } from "@/api/index";
import { queryKeys } from "@/lib/queryKeys";

async function queryFn() {
  const { data } = await ParametersService.readMetrics({ throwOnError: true });
  return data;
}

export function useGetMetricsQuery() {
  const query = useQuery({ queryKey: queryKeys.metrics(), queryFn, staleTime: Infinity });
  return { metrics: query.data, isLoading: query.isLoading, error: query.error } as const;
}
