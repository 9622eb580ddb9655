// Saved views of the Compare page, most recently saved first.
import { useQuery } from "@tanstack/react-query";
import { ViewsService } from "@/api";
import { queryKeys } from "@/lib/queryKeys";

async function fetchViews() {
  const { data } = await ViewsService.readViews({ query: { limit: 200 }, throwOnError: true });
  return data;
}

export function useGetViewsQuery() {
  const query = useQuery({ queryKey: queryKeys.views.list(), queryFn: fetchViews });
  return { views: query.data, isLoading: query.isLoading, error: query.error } as const;
}
