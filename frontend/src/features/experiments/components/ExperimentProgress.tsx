// The experiment-wide progress bar: runs ended out of all runs, with the count per status; while
// Start's background task sends a large grid's runs to the worker queue, how many are sent.
import { endedRuns } from "@/features/runs";

/** Props of ExperimentProgress. */
export interface ExperimentProgressProps {
  counts: Record<string, number>;
  /** Runs the design plans, shown before any run is queued. */
  planned: number;
  /** Queued runs whose message is not sent to the worker queue yet (runs_unsent). */
  unsent?: number;
}

const ORDER = ["succeeded", "failed", "cancelled", "running", "queued"];

export function ExperimentProgress({ counts, planned, unsent = 0 }: ExperimentProgressProps) {
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
      {unsent > 0 && (
        <p className="hint" data-testid="sending-progress">
          <progress
            className="progress-bar"
            max={counts.queued ?? unsent}
            value={(counts.queued ?? unsent) - unsent}
            aria-label="Runs sent to the worker queue"
          />
          Sending runs to the worker queue: {(counts.queued ?? unsent) - unsent} of{" "}
          {counts.queued ?? unsent} sent
        </p>
      )}
    </div>
  );
}
