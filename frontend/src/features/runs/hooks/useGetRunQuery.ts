// One run with its hosts, tool versions, command lines and error; polls while it is live.
import { useQuery } from "@tanstack/react-query";
import { RunsService } from "@/api";
import { isActive } from "@/lib/hooks/useGetExperimentQuery";
import { queryKeys } from "@/lib/queryKeys";

async function fetchRun(runId: number) {
  const { data } = await RunsService.readRun({ path: { run_id: runId }, throwOnError: true });
  return data;
}

export function useGetRunQuery(runId: number) {
  const query = useQuery({
    queryKey: queryKeys.run(runId),
    queryFn: () => fetchRun(runId),
    refetchInterval: (q) => (isActive(q.state.data?.status) ? 2000 : false),
  });
  return { run: query.data, isLoading: query.isLoading, error: query.error } as const;
}
