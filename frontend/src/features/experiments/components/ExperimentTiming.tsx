// The header's time: the estimate (a rule's range, minimum to cap) and, once every run has
// ended, the actual time from the first run's start to the last run's end.
import type { ElapsedPublic, GridPreviewPublic } from "@/api";
import { formatDuration, formatOverhead } from "@/lib/format";
import { estimateText } from "../utils/ruleRange";

/** Props of ExperimentTiming. */
export interface ExperimentTimingProps {
  preview: GridPreviewPublic;
  elapsed: ElapsedPublic | null | undefined;
}

export function ExperimentTiming({ preview, elapsed }: ExperimentTimingProps) {
  return (
    <>
      <dt>Estimated</dt>
      <dd title={formatOverhead(preview.overhead)} data-testid="estimated">
        {estimateText(preview)}
      </dd>
      {elapsed?.seconds != null && (
        <>
          <dt>Took</dt>
          <dd
            data-testid="elapsed"
            title={`from ${new Date(elapsed.started_at).toLocaleString()} to ${new Date(elapsed.ended_at ?? elapsed.started_at).toLocaleString()}`}
          >
            {formatDuration(elapsed.seconds)}
          </dd>
        </>
      )}
    </>
  );
}
