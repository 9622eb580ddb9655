// Store what the preview shows; the experiments list changes.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type ImportMapping, ImportsService } from "@/api";
import { queryKeys } from "@/lib/queryKeys";

export function useConfirmImportMutation(upload: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (mapping: ImportMapping) =>
      (
        await ImportsService.confirmImport({
          path: { upload },
          body: mapping,
          throwOnError: true,
        })
      ).data,
    onSuccess: () =>
      queryClient.invalidateQueries({ queryKey: [...queryKeys.experiments.all(), "list"] }),
  });
}
