// The network bound per role of each configuration (from the testbed's iperf3 bandwidths)
// beside its measured throughput; a 422 means no bandwidth was measured on the testbed.
import { useQuery } from "@tanstack/react-query";
import { AnalysisService, type RequestType } from "@/api";
import { retryUnlessAnswered } from "@/lib/apiError";
import { queryKeys, type ResultWindow, windowQuery } from "@/lib/queryKeys";

async function fetchNetworkBound(
  id: number,
  requestType: RequestType,
  window: ResultWindow | null,
) {
  const { data } = await AnalysisService.readNetworkBound({
    path: { experiment_id: id },
    query: { request_type: requestType, ...windowQuery(window) },
    throwOnError: true,
  });
  return data;
}

export function useGetNetworkBoundQuery(
  id: number,
  requestType: RequestType,
  window: ResultWindow | null,
) {
  const query = useQuery({
    queryKey: [...queryKeys.experiments.interactiveLaw(id, requestType, window), "network-bound"],
    queryFn: () => fetchNetworkBound(id, requestType, window),
    retry: retryUnlessAnswered,
  });
  return { bound: query.data, error: query.error } as const;
}
