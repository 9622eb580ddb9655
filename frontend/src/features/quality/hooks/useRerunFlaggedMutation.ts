// Queue new attempts of exactly the flagged runs; changes the runs, their quality and status.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { QualityService } from "@/api";
import { queryKeys, type ResultWindow, windowQuery } from "@/lib/queryKeys";

async function rerunFlagged(id: number, window?: ResultWindow | null) {
  const { data } = await QualityService.rerunFlagged({
    path: { experiment_id: id },
    query: windowQuery(window),
    throwOnError: true,
  });
  return data;
}

export function useRerunFlaggedMutation(id: number, window?: ResultWindow | null) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => rerunFlagged(id, window),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.experiments.detail(id), exact: true }),
        queryClient.invalidateQueries({ queryKey: [...queryKeys.experiments.detail(id), "runs"] }),
        queryClient.invalidateQueries({
          queryKey: [...queryKeys.experiments.detail(id), "quality"],
        }),
      ]),
  });
}
