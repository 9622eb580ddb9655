// An experiment's runs, optionally by status; polls while the experiment is active.
import { useQuery } from "@tanstack/react-query";
import { ExperimentRunsService, type RunStatus } from "@/api";
import { queryKeys } from "@/lib/queryKeys";

export const RUNS_POLL_MS = 2000;

async function fetchRuns(id: number, status?: RunStatus) {
  const { data } = await ExperimentRunsService.readRuns({
    path: { experiment_id: id },
    query: { status, limit: 1000 },
    throwOnError: true,
  });
  return data;
}

export function useGetRunsQuery(id: number, options: { status?: RunStatus; poll: boolean }) {
  const query = useQuery({
    queryKey: queryKeys.experiments.runs(id, options.status),
    queryFn: () => fetchRuns(id, options.status),
    refetchInterval: options.poll ? RUNS_POLL_MS : false,
  });
  return { runs: query.data, isLoading: query.isLoading, error: query.error } as const;
}
