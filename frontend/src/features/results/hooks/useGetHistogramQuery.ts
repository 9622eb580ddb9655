// Merged response-time histogram of one configuration, with percentiles, from the analysis API.
import { useQuery } from "@tanstack/react-query";
import { AnalysisService, type HistogramMetric, type RequestType } from "@/api";
import { queryKeys, type ResultSource, type ResultWindow, windowQuery } from "@/lib/queryKeys";

/** The percentiles the histogram view marks and tabulates. */
export const HISTOGRAM_PERCENTILES = [25, 50, 75, 90, 99] as const;

async function fetchHistogram(
  id: number,
  configurationId: number,
  source: ResultSource,
  requestType: RequestType,
  metric: HistogramMetric,
  window: ResultWindow | null,
) {
  const { data } = await AnalysisService.readExperimentHistogram({
    path: { experiment_id: id },
    query: {
      configuration_id: configurationId,
      source,
      request_type: requestType,
      metric,
      percentiles: HISTOGRAM_PERCENTILES.join(","),
      ...windowQuery(window),
    },
    throwOnError: true,
  });
  return data;
}

export function useGetHistogramQuery(
  id: number,
  configurationId: number | undefined,
  source: ResultSource,
  requestType: RequestType,
  metric: HistogramMetric,
  window: ResultWindow | null,
) {
  const query = useQuery({
    queryKey: queryKeys.experiments.histogram(
      id,
      configurationId ?? 0,
      source,
      requestType,
      metric,
      window,
    ),
    queryFn: () => fetchHistogram(id, configurationId ?? 0, source, requestType, metric, window),
    enabled: configurationId !== undefined,
  });
  return { histogram: query.data, isLoading: query.isLoading, error: query.error } as const;
}
