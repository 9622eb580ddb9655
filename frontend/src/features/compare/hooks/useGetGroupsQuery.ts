// Grouped mean curves with their bands over a shared x parameter.
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { CompareService, type GroupsRequest } from "@/api";
import { queryKeys } from "@/lib/queryKeys";

async function fetchGroups(body: GroupsRequest) {
  const { data } = await CompareService.compareGroups({ body, throwOnError: true });
  return data;
}

export function useGetGroupsQuery(request: GroupsRequest | null) {
  const query = useQuery({
    queryKey: queryKeys.compare.groups(request ?? { experiment_ids: [], x: "" }),
    queryFn: () => fetchGroups(request as GroupsRequest),
    enabled: request !== null,
    placeholderData: keepPreviousData,
  });
  return { groups: query.data, isLoading: query.isLoading, error: query.error } as const;
}
