// When another run of the experiment ends (seen by run events or polling of the experiment),
// every cached view of it (results, analyses, histograms, series) is refetched: panels never
// keep the partial data of the runs that had finished before.
import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import { queryKeys } from "@/lib/queryKeys";

const ENDED = ["succeeded", "failed", "cancelled"] as const;

export function endedRuns(counts: Record<string, number>): number {
  return ENDED.reduce((sum, s) => sum + (counts[s] ?? 0), 0);
}

export function useRefreshWhenRunsFinish(experimentId: number, counts: Record<string, number>) {
  const queryClient = useQueryClient();
  const ended = endedRuns(counts);
  const seen = useRef(ended);
  useEffect(() => {
    if (ended === seen.current) return;
    seen.current = ended;
    const detail = queryKeys.experiments.detail(experimentId);
    // Everything under the experiment's key, except the experiment itself (just fetched).
    queryClient.invalidateQueries({
      queryKey: detail,
      predicate: (q) => q.queryKey.length > detail.length,
    });
  }, [experimentId, ended, queryClient]);
}
