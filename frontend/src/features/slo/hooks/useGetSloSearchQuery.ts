// A latency-SLO search as it stands (probes, verdicts, answer); polls while it searches.
import { useQuery } from "@tanstack/react-query";
import { ExperimentRunsService } from "@/api";
import { queryKeys } from "@/lib/queryKeys";

export const SLO_POLL_MS = 2000;

async function fetchSloSearch(id: number) {
  const { data } = await ExperimentRunsService.readSloSearch({
    path: { experiment_id: id },
    throwOnError: true,
  });
  return data;
}

/** poll: also while the experiment has runs queued or running (between Start and the first
 * probe the search is not started yet). */
export function useGetSloSearchQuery(id: number, poll: boolean) {
  const query = useQuery({
    queryKey: queryKeys.experiments.sloSearch(id),
    queryFn: () => fetchSloSearch(id),
    refetchInterval: (q) => (poll || q.state.data?.state === "searching" ? SLO_POLL_MS : false),
  });
  return { search: query.data, isLoading: query.isLoading, error: query.error } as const;
}
