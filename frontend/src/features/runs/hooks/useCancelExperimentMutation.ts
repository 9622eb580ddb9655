// Cancel queued runs and ask running ones to stop; changes status and run list.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { ExperimentRunsService } from "@/api";
import { queryKeys } from "@/lib/queryKeys";

async function cancelExperiment(id: number) {
  const { data } = await ExperimentRunsService.cancelExperiment({
    path: { experiment_id: id },
    throwOnError: true,
  });
  return data;
}

export function useCancelExperimentMutation(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => cancelExperiment(id),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.experiments.detail(id), exact: true }),
        queryClient.invalidateQueries({ queryKey: [...queryKeys.experiments.detail(id), "runs"] }),
        queryClient.invalidateQueries({ queryKey: [...queryKeys.experiments.all(), "list"] }),
      ]),
  });
}
