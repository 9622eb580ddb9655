// One bottleneck statement per group of configurations, over every model that names one.
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { AnalysisService, type RequestType } from "@/api";
import { retryUnlessAnswered } from "@/lib/apiError";
import { queryKeys, type ResultWindow, windowQuery } from "@/lib/queryKeys";

async function fetchBottlenecks(
  id: number,
  requestType: RequestType,
  util: number | null,
  window: ResultWindow | null,
) {
  const { data } = await AnalysisService.readBottlenecks({
    path: { experiment_id: id },
    query: {
      request_type: requestType,
      ...(util === null ? {} : { server_utilization: util }),
      ...windowQuery(window),
    },
    throwOnError: true,
  });
  return data;
}

export function useGetBottlenecksQuery(
  id: number,
  requestType: RequestType,
  utilization: number | null,
  window: ResultWindow | null,
) {
  const query = useQuery({
    queryKey: queryKeys.experiments.bottlenecks(id, requestType, utilization, window),
    queryFn: () => fetchBottlenecks(id, requestType, utilization, window),
    placeholderData: keepPreviousData,
    retry: retryUnlessAnswered,
  });
  return { bottlenecks: query.data, error: query.error } as const;
}
