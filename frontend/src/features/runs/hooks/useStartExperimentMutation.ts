// Queue (or resume) an experiment's runs; changes its status and run list.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { ExperimentRunsService } from "@/api";
import { queryKeys } from "@/lib/queryKeys";

async function startExperiment(id: number) {
  const { data } = await ExperimentRunsService.startExperiment({
    path: { experiment_id: id },
    throwOnError: true,
  });
  return data;
}

export function useStartExperimentMutation(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => startExperiment(id),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.experiments.detail(id), exact: true }),
        queryClient.invalidateQueries({ queryKey: [...queryKeys.experiments.detail(id), "runs"] }),
        queryClient.invalidateQueries({ queryKey: [...queryKeys.experiments.all(), "list"] }),
      ]),
  });
}
