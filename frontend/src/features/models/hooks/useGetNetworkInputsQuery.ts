// The MVA network's inputs estimated from a stored experiment, with the measured X and R vs N.
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { AnalysisService, type RequestType } from "@/api";
import { retryUnlessAnswered } from "@/lib/apiError";
import { queryKeys, type ResultWindow, windowQuery } from "@/lib/queryKeys";

async function fetchNetworkInputs(
  id: number,
  requestType: RequestType,
  util: number | null,
  window: ResultWindow | null,
) {
  const { data } = await AnalysisService.readNetworkInputs({
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

export function useGetNetworkInputsQuery(
  id: number,
  requestType: RequestType,
  utilization: number | null,
  window: ResultWindow | null,
) {
  const query = useQuery({
    queryKey: queryKeys.experiments.networkInputs(id, requestType, utilization, window),
    queryFn: () => fetchNetworkInputs(id, requestType, utilization, window),
    placeholderData: keepPreviousData,
    retry: retryUnlessAnswered,
  });
  return { inputs: query.data, isLoading: query.isLoading, error: query.error } as const;
}
