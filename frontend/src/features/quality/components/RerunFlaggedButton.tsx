// "Re-run flagged": queues new attempts of exactly the runs the quality rules flagged.

import { handleError } from "@/components/common/handleError";
import type { ResultWindow } from "@/lib/queryKeys";
import { useRerunFlaggedMutation } from "../hooks/useRerunFlaggedMutation";

/** Props of RerunFlaggedButton. */
export interface RerunFlaggedButtonProps {
  experimentId: number;
  flagged: number;
  window?: ResultWindow | null;
}

export function RerunFlaggedButton({ experimentId, flagged, window }: RerunFlaggedButtonProps) {
  const rerun = useRerunFlaggedMutation(experimentId, window);
  return (
    <button
      type="button"
      data-testid="rerun-flagged"
      disabled={flagged === 0 || rerun.isPending}
      title="Queue a new attempt of every flagged run; results keep the older attempt until it succeeds"
      onClick={() => rerun.mutate(undefined, { onError: handleError })}
    >
      {rerun.isPending ? "Queuing…" : `Re-run flagged (${flagged})`}
    </button>
  );
}
