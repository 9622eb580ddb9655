// One page of one archived file as text (the server pages large files: 64 KiB a page).
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { RunsService } from "@/api";
import { queryKeys } from "@/lib/queryKeys";

async function fetchPage(runId: number, path: string, offset: number) {
  const { data } = await RunsService.readRunFileText({
    path: { run_id: runId },
    query: { path, offset },
    throwOnError: true,
  });
  return data;
}

export function useGetRunFilePageQuery(runId: number, path: string | null, offset: number) {
  const query = useQuery({
    queryKey: queryKeys.runFilePage(runId, path ?? "", offset),
    queryFn: () => fetchPage(runId, path ?? "", offset),
    enabled: path !== null,
    placeholderData: keepPreviousData,
  });
  return { page: query.data, isFetching: query.isFetching, error: query.error } as const;
}
