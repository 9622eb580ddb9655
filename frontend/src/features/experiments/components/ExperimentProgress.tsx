// The experiment-wide progress bar: runs ended out of all runs, with the count per status.
import { endedRuns } from "@/features/runs/hooks/useRefreshWhenRunsFinish";

/** Props of ExperimentProgress. */
export interface ExperimentProgressProps {
  counts: Record<string, number>;
  /** Runs the design plans, shown before any run is queued. */
  planned: number;
}

const ORDER = ["succeeded", "failed", "cancelled", "running", "queued"];

export function ExperimentProgress({ counts, planned }: ExperimentProgressProps) {
  const total = Object.values(counts).reduce((a, b) => a + b, 0) || planned;
  const ended = endedRuns(counts);
  const parts = ORDER.filter((s) => counts[s]).map((s) => `${counts[s]} ${s}`);
  return (
    <div className="card" data-testid="experiment-progress">
      <progress className="progress-bar" max={total} value={ended} aria-label="Runs ended" />
      <p className="hint">
        {ended} of {total} runs ended
        {parts.length > 0 ? ` (${parts.join(", ")})` : " (not started yet)"}
      </p>
    </div>
  );
}
