// Every attempt of one run, with each successful attempt's means and flags (run page).
import { useQuery } from "@tanstack/react-query";
import { QualityService } from "@/api";
import { queryKeys } from "@/lib/queryKeys";

async function fetchAttempts(runId: number) {
  const { data } = await QualityService.readRunAttempts({
    path: { run_id: runId },
    throwOnError: true,
  });
  return data;
}

export function useGetRunAttemptsQuery(runId: number) {
  const query = useQuery({
    queryKey: queryKeys.runAttempts(runId),
    queryFn: () => fetchAttempts(runId),
  });
  return { attempts: query.data, error: query.error } as const;
}
