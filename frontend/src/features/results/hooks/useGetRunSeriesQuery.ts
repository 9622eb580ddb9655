// Per-second throughput and response time of one run, with its stable window, from the API.
import { useQuery } from "@tanstack/react-query";
import { ExperimentRunsService, type RequestType } from "@/api";
import { queryKeys, type ResultSource } from "@/lib/queryKeys";

async function fetchRunSeries(
  id: number,
  runId: number,
  source: ResultSource,
  requestType: RequestType,
) {
  const { data } = await ExperimentRunsService.readRunSeries({
    path: { experiment_id: id, run_id: runId },
    query: { source, request_type: requestType },
    throwOnError: true,
  });
  return data;
}

export function useGetRunSeriesQuery(
  id: number,
  runId: number | undefined,
  source: ResultSource,
  requestType: RequestType,
) {
  const query = useQuery({
    queryKey: queryKeys.experiments.runSeries(id, runId ?? 0, source, requestType),
    queryFn: () => fetchRunSeries(id, runId ?? 0, source, requestType),
    // Nothing to ask for until a run is chosen (or the experiment has one).
    enabled: runId !== undefined,
  });
  return { series: query.data, isLoading: query.isLoading, error: query.error } as const;
}
