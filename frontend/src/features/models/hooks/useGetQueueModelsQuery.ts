// M/M/1 and M/M/m per configuration of a stored experiment, against its measurements.
import { useQuery } from "@tanstack/react-query";
import { AnalysisService, type RequestType } from "@/api";
import { retryUnlessAnswered } from "@/lib/apiError";
import { queryKeys, type ResultWindow, windowQuery } from "@/lib/queryKeys";
import type { ServiceRate } from "../urlState";

async function fetchQueueModels(
  id: number,
  requestType: RequestType,
  rate: ServiceRate,
  window: ResultWindow | null,
) {
  const { data } = await AnalysisService.readQueueModels({
    path: { experiment_id: id },
    query: { request_type: requestType, service_rate: rate, ...windowQuery(window) },
    throwOnError: true,
  });
  return data;
}

export function useGetQueueModelsQuery(
  id: number,
  requestType: RequestType,
  rate: ServiceRate,
  window: ResultWindow | null,
) {
  const query = useQuery({
    queryKey: queryKeys.experiments.queueModels(id, requestType, rate, window),
    queryFn: () => fetchQueueModels(id, requestType, rate, window),
    retry: retryUnlessAnswered,
  });
  return { queueModels: query.data, isLoading: query.isLoading, error: query.error } as const;
}
