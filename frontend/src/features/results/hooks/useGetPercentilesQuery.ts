// Response-time percentiles of every configuration (merged histograms), from the analysis API.
import { useQuery } from "@tanstack/react-query";
import { AnalysisService, type HistogramMetric, type RequestType } from "@/api";
import { queryKeys, type ResultSource, type ResultWindow, windowQuery } from "@/lib/queryKeys";

async function fetchPercentiles(
  id: number,
  source: ResultSource,
  requestType: RequestType,
  metric: HistogramMetric,
  percentiles: readonly number[],
  window: ResultWindow | null,
) {
  const { data } = await AnalysisService.readExperimentPercentiles({
    path: { experiment_id: id },
    query: {
      source,
      request_type: requestType,
      metric,
      percentiles: percentiles.join(","),
      ...windowQuery(window),
    },
    throwOnError: true,
  });
  return data;
}

export function useGetPercentilesQuery(
  id: number,
  source: ResultSource,
  requestType: RequestType,
  metric: HistogramMetric,
  percentiles: readonly number[],
  window: ResultWindow | null,
) {
  const query = useQuery({
    queryKey: queryKeys.experiments.percentiles(
      id,
      source,
      requestType,
      metric,
      percentiles,
      window,
    ),
    queryFn: () => fetchPercentiles(id, source, requestType, metric, percentiles, window),
  });
  return { percentiles: query.data, isLoading: query.isLoading, error: query.error } as const;
}
