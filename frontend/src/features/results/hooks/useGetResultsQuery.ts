// Aggregated results (mean/std over repetitions) per configuration of one experiment.
import { useQueries, useQuery } from "@tanstack/react-query";
import { ExperimentRunsService, type RequestType } from "@/api";
import { queryKeys, type ResultSource } from "@/lib/queryKeys";

async function fetchResults(id: number, source: ResultSource, requestType: RequestType) {
  const { data } = await ExperimentRunsService.readResults({
    path: { experiment_id: id },
    query: { source, request_type: requestType },
    throwOnError: true,
  });
  return data;
}

function resultsQuery(id: number, source: ResultSource, requestType: RequestType, poll: boolean) {
  return {
    queryKey: queryKeys.experiments.results(id, source, requestType),
    queryFn: () => fetchResults(id, source, requestType),
    refetchInterval: poll ? 5000 : (false as const),
  };
}

export function useGetResultsQuery(
  id: number,
  source: ResultSource,
  requestType: RequestType,
  poll = false,
) {
  const query = useQuery(resultsQuery(id, source, requestType, poll));
  return { results: query.data, isLoading: query.isLoading, error: query.error } as const;
}

/** Results of several experiments at once, for the compare view. */
export function useGetManyResultsQuery(
  ids: number[],
  source: ResultSource,
  requestType: RequestType,
) {
  const queries = useQueries({
    queries: ids.map((id) => resultsQuery(id, source, requestType, false)),
  });
  return {
    results: queries.map((q) => q.data),
    isLoading: queries.some((q) => q.isLoading),
    error: queries.find((q) => q.error)?.error ?? null,
  } as const;
}
