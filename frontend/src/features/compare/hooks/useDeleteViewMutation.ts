// Delete a saved view; refreshes the list of saved views.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { ViewsService } from "@/api";
import { queryKeys } from "@/lib/queryKeys";

async function deleteView(id: number) {
  await ViewsService.deleteView({ path: { view_id: id }, throwOnError: true });
  return id;
}

export function useDeleteViewMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteView,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.views.all() }),
  });
}
