// Save the current Compare state under a name; refreshes the list of saved views.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type ViewCreate, ViewsService } from "@/api";
import { queryKeys } from "@/lib/queryKeys";

async function createView(body: ViewCreate) {
  const { data } = await ViewsService.createView({ body, throwOnError: true });
  return data;
}

export function useCreateViewMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createView,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.views.all() }),
  });
}
