// Aggregated results (mean/std over repetitions) per configuration of one experiment.
import { keepPreviousData, useQueries, useQuery } from "@tanstack/react-query";
import { ExperimentRunsService, type RequestType } from "@/api";
import { queryKeys, type ResultSource, type ResultWindow } from "@/lib/queryKeys";

async function fetchResults(
  id: number,
  source: ResultSource,
  requestType: RequestType,
  window?: ResultWindow,
) {
  const { data } = await ExperimentRunsService.readResults({
    path: { experiment_id: id },
    query: {
      source,
      request_type: requestType,
      window_start_s: window?.start,
      window_end_s: window?.end,
    },
    throwOnError: true,
  });
  return data;
}

function resultsQuery(
  id: number,
  source: ResultSource,
  requestType: RequestType,
  poll: boolean,
  window?: ResultWindow,
) {
  return {
    queryKey: queryKeys.experiments.results(id, source, requestType, window),
    queryFn: () => fetchResults(id, source, requestType, window),
    refetchInterval: poll ? 5000 : (false as const),
  };
}

export function useGetResultsQuery(
  id: number,
  source: ResultSource,
  requestType: RequestType,
  poll = false,
  window?: ResultWindow,
) {
  // Switching source or window keeps the previous figures on screen until the new ones arrive.
  const query = useQuery({
    ...resultsQuery(id, source, requestType, poll, window),
    placeholderData: keepPreviousData,
  });
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
