// Aggregated results (mean/std over repetitions) per configuration of one experiment.
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { ExperimentRunsService, type RequestType } from "@/api";
import { queryKeys, type ResultSource, type ResultWindow, windowQuery } from "@/lib/queryKeys";

async function fetchResults(
  id: number,
  source: ResultSource,
  requestType: RequestType,
  window?: ResultWindow | null,
) {
  const { data } = await ExperimentRunsService.readResults({
    path: { experiment_id: id },
    query: {
      source,
      request_type: requestType,
      ...windowQuery(window),
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
  window?: ResultWindow | null,
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
  window?: ResultWindow | null,
) {
  // Switching source or window keeps the previous figures on screen until the new ones arrive.
  const query = useQuery({
    ...resultsQuery(id, source, requestType, poll, window),
    placeholderData: keepPreviousData,
  });
  return { results: query.data, isLoading: query.isLoading, error: query.error } as const;
}
