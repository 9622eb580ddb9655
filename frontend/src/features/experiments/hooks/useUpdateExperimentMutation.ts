// Replace the design of an experiment that has no runs yet; refreshes it and the list.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type ExperimentCreate, ExperimentsService } from "@/api";
import { queryKeys } from "@/lib/queryKeys";

async function updateExperiment(vars: { id: number; spec: ExperimentCreate }) {
  const { data } = await ExperimentsService.updateExperiment({
    path: { experiment_id: vars.id },
    body: vars.spec,
    throwOnError: true,
  });
  return data;
}

export function useUpdateExperimentMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateExperiment,
    onSuccess: (_, vars) =>
      queryClient
        .invalidateQueries({ queryKey: queryKeys.experiments.detail(vars.id) })
        .then(() =>
          queryClient.invalidateQueries({ queryKey: [...queryKeys.experiments.all(), "list"] }),
        ),
  });
}
