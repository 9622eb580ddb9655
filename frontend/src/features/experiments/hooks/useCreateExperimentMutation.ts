// Create an experiment; the list is the only cached thing it changes.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type ExperimentCreate, ExperimentsService } from "@/api";
import { queryKeys } from "@/lib/queryKeys";

async function createExperiment(spec: ExperimentCreate) {
  const { data } = await ExperimentsService.createExperiment({ body: spec, throwOnError: true });
  return data;
}

export function useCreateExperimentMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createExperiment,
    onSuccess: () =>
      queryClient.invalidateQueries({ queryKey: [...queryKeys.experiments.all(), "list"] }),
  });
}
