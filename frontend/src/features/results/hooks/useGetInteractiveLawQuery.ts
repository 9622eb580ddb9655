// Interactive response time law check per configuration: expected X = N / (R + Z) vs measured.
import { useQuery } from "@tanstack/react-query";
import { AnalysisService, type RequestType } from "@/api";
import { retryUnlessAnswered } from "@/lib/apiError";
import { queryKeys, type ResultWindow, windowQuery } from "@/lib/queryKeys";

async function fetchInteractiveLaw(
  id: number,
  requestType: RequestType,
  window: ResultWindow | null,
) {
  const { data } = await AnalysisService.readInteractiveLaw({
    path: { experiment_id: id },
    query: { request_type: requestType, ...windowQuery(window) },
    throwOnError: true,
  });
  return data;
}

export function useGetInteractiveLawQuery(
  id: number,
  requestType: RequestType,
  window: ResultWindow | null,
  enabled: boolean,
) {
  const query = useQuery({
    queryKey: queryKeys.experiments.interactiveLaw(id, requestType, window),
    queryFn: () => fetchInteractiveLaw(id, requestType, window),
    enabled,
    retry: retryUnlessAnswered,
  });
  return { law: query.data, isLoading: query.isLoading, error: query.error } as const;
}
