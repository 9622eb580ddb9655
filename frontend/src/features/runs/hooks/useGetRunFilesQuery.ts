// A run's archived files (path and size), for the raw-file viewer; re-read while the run is live.
import { useQuery } from "@tanstack/react-query";
import { RunsService } from "@/api";
import { queryKeys } from "@/lib/queryKeys";

async function fetchRunFiles(runId: number) {
  const { data } = await RunsService.readRunFileIndex({
    path: { run_id: runId },
    throwOnError: true,
  });
  return data;
}

export function useGetRunFilesQuery(runId: number, live: boolean) {
  const query = useQuery({
    queryKey: queryKeys.runFiles(runId),
    queryFn: () => fetchRunFiles(runId),
    refetchInterval: live ? 5000 : false,
  });
  return { files: query.data?.data, isLoading: query.isLoading, error: query.error } as const;
}
