// Copy an experiment's design under a new name; adds a row to the list.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { ExperimentsService } from "@/api";
import { queryKeys } from "@/lib/queryKeys";

async function duplicateExperiment(vars: { id: number; name: string }) {
  const { data } = await ExperimentsService.duplicateExperiment({
    path: { experiment_id: vars.id },
    body: { name: vars.name },
    throwOnError: true,
  });
  return data;
}

export function useDuplicateExperimentMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: duplicateExperiment,
    onSuccess: () =>
      queryClient.invalidateQueries({ queryKey: [...queryKeys.experiments.all(), "list"] }),
  });
}
