// Start / cancel / duplicate / delete buttons of one experiment.
import { Link, useNavigate } from "react-router";
import type { ExperimentPublic } from "@/api";
import { handleError, showSuccess } from "@/components/common/handleError";
import { useCancelExperimentMutation, useStartExperimentMutation } from "@/features/runs";
import { isActive } from "@/lib/hooks/useGetExperimentQuery";
import { useDeleteExperimentMutation } from "../hooks/useDeleteExperimentMutation";

/** Props of ExperimentActions. */
export interface ExperimentActionsProps {
  experiment: ExperimentPublic;
}

export function ExperimentActions({ experiment }: ExperimentActionsProps) {
  const navigate = useNavigate();
  const start = useStartExperimentMutation(experiment.id);
  const cancel = useCancelExperimentMutation(experiment.id);
  const remove = useDeleteExperimentMutation();
  const active = isActive(experiment.status);
  const hasRuns = Object.values(experiment.run_counts).some((n) => n > 0);

  return (
    <div className="actions">
      <button
        type="button"
        className="primary"
        disabled={
          active ||
          start.isPending ||
          experiment.status === "finished" ||
          experiment.kind === "imported"
        }
        title={experiment.kind === "imported" ? "Imported runs were made elsewhere" : undefined}
        onClick={() =>
          start.mutate(undefined, {
            onSuccess: (r) =>
              showSuccess(
                `Queued ${r.queued} runs (${r.already_done} already done)` +
                  (r.unsent > 0 ? `; sending ${r.unsent} to the worker queue` : ""),
              ),
            onError: handleError,
          })
        }
      >
        {experiment.status === "failed" || experiment.status === "cancelled" ? "Resume" : "Start"}
      </button>
      <button
        type="button"
        disabled={!active || cancel.isPending}
        onClick={() =>
          cancel.mutate(undefined, {
            onSuccess: (r) => showSuccess(`Cancelled ${r.cancelled} runs, stopping ${r.stopping}`),
            onError: handleError,
          })
        }
      >
        Cancel
      </button>
      {!hasRuns && (
        <Link className="button" to={`/experiments/${experiment.id}/edit`}>
          Edit design
        </Link>
      )}
      <Link className="button" to={`/experiments/new?from=${experiment.id}`}>
        Duplicate
      </Link>
      <button
        type="button"
        className="danger"
        disabled={remove.isPending}
        onClick={() => {
          if (!window.confirm(`Delete ${experiment.name} with all its runs and results?`)) return;
          remove.mutate(experiment.id, {
            onSuccess: () => {
              showSuccess(`Deleted ${experiment.name}`);
              navigate("/experiments");
            },
            onError: handleError,
          });
        }}
      >
        Delete
      </button>
    </div>
  );
}
