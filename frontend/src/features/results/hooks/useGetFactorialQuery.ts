// 2^k r factorial analysis of an experiment's two-level factors (effects, variation, CIs).
import { useQuery } from "@tanstack/react-query";
import { AnalysisService, type RequestType } from "@/api";
import { queryKeys, type ResultSource } from "@/lib/queryKeys";

async function fetchFactorial(
  id: number,
  source: ResultSource,
  requestType: RequestType,
  multiplicative: boolean,
) {
  const { data } = await AnalysisService.readExperimentFactorial({
    path: { experiment_id: id },
    query: { source, request_type: requestType, multiplicative, metric: "throughput_per_s" },
    throwOnError: true,
  });
  return data;
}

export function useGetFactorialQuery(
  id: number,
  source: ResultSource,
  requestType: RequestType,
  multiplicative: boolean,
  enabled: boolean,
) {
  const query = useQuery({
    queryKey: queryKeys.experiments.factorial(id, source, requestType, multiplicative),
    queryFn: () => fetchFactorial(id, source, requestType, multiplicative),
    enabled,
  });
  return { factorial: query.data, error: query.error } as const;
}
