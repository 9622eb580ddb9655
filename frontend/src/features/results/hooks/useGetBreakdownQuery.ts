// Response-time breakdown per configuration (queue, server, processing, network), from the API.
import { useQuery } from "@tanstack/react-query";
import { AnalysisService, type RequestType } from "@/api";
import { queryKeys, type ResultWindow, windowQuery } from "@/lib/queryKeys";

async function fetchBreakdown(id: number, requestType: RequestType, window: ResultWindow | null) {
  const { data } = await AnalysisService.readExperimentBreakdown({
    path: { experiment_id: id },
    query: { request_type: requestType, ...windowQuery(window) },
    throwOnError: true,
  });
  return data;
}

export function useGetBreakdownQuery(
  id: number,
  requestType: RequestType,
  window: ResultWindow | null,
  enabled: boolean,
) {
  const query = useQuery({
    queryKey: queryKeys.experiments.breakdown(id, requestType, window),
    queryFn: () => fetchBreakdown(id, requestType, window),
    enabled,
  });
  return { breakdown: query.data, isLoading: query.isLoading, error: query.error } as const;
}
