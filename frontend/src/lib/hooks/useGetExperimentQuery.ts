// One experiment with its status and run counts; polls while runs are queued or running.
import { useQuery } from "@tanstack/react-query";
import { ExperimentsService } from "@/api/index";
import { queryKeys } from "@/lib/queryKeys";

export const ACTIVE_POLL_MS = 2000;

async function fetchExperiment(id: number) {
  const { data } = await ExperimentsService.readExperiment({
    path: { experiment_id: id },
    throwOnError: true,
  });
  return data;
}

export function isActive(status: string | undefined): boolean {
  return status === "queued" || status === "running";
}

export function useGetExperimentQuery(id: number, enabled = true) {
  const query = useQuery({
    queryKey: queryKeys.experiments.detail(id),
    queryFn: () => fetchExperiment(id),
    enabled,
    refetchInterval: (q) => (isActive(q.state.data?.status) ? ACTIVE_POLL_MS : false),
  });
  return { experiment: query.data, isLoading: query.isLoading, error: query.error } as const;
}
