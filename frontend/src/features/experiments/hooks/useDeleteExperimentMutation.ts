// Delete an experiment; drops its cached detail and refreshes the list.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { ExperimentsService } from "@/api";
import { queryKeys } from "@/lib/queryKeys";

async function deleteExperiment(id: number) {
  await ExperimentsService.deleteExperiment({ path: { experiment_id: id }, throwOnError: true });
  return id;
}

export function useDeleteExperimentMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteExperiment,
    onSuccess: (id) => {
      queryClient.removeQueries({ queryKey: queryKeys.experiments.detail(id) });
      return queryClient.invalidateQueries({ queryKey: [...queryKeys.experiments.all(), "list"] });
    },
  });
}
