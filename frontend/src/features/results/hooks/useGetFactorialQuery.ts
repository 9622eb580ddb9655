// 2^k r factorial analysis of an experiment's two-level factors (effects, variation, CIs).
import { useQuery } from "@tanstack/react-query";
import { AnalysisService, type RequestType } from "@/api";
import { retryUnlessAnswered } from "@/lib/apiError";
import { queryKeys, type ResultSource, type ResultWindow, windowQuery } from "@/lib/queryKeys";

async function fetchFactorial(
  id: number,
  source: ResultSource,
  requestType: RequestType,
  multiplicative: boolean,
  window: ResultWindow | null,
  tCritical: number | null,
) {
  const { data } = await AnalysisService.readExperimentFactorial({
    path: { experiment_id: id },
    query: {
      source,
      request_type: requestType,
      multiplicative,
      metric: "throughput_per_s",
      ...(tCritical === null ? {} : { t_critical: tCritical }),
      ...windowQuery(window),
    },
    throwOnError: true,
  });
  return data;
}

export function useGetFactorialQuery(
  id: number,
  source: ResultSource,
  requestType: RequestType,
  multiplicative: boolean,
  window: ResultWindow | null,
  enabled: boolean,
  /** A critical t given by the user (e.g. a table value); null: the exact quantile. */
  tCritical: number | null = null,
) {
  const query = useQuery({
    queryKey: [
      ...queryKeys.experiments.factorial(id, source, requestType, multiplicative, window),
      tCritical ?? "exact",
    ],
    queryFn: () => fetchFactorial(id, source, requestType, multiplicative, window, tCritical),
    enabled,
    retry: retryUnlessAnswered,
  });
  return { factorial: query.data, error: query.error } as const;
}
