// Start / cancel / duplicate / delete buttons of one experiment.
import { useNavigate } from "react-router";
import type { ExperimentPublic } from "@/api";
import { handleError, showSuccess } from "@/components/common/handleError";
import { useCancelExperimentMutation } from "@/features/runs/hooks/useCancelExperimentMutation";
import { useStartExperimentMutation } from "@/features/runs/hooks/useStartExperimentMutation";
import { useDeleteExperimentMutation } from "../hooks/useDeleteExperimentMutation";
import { useDuplicateExperimentMutation } from "../hooks/useDuplicateExperimentMutation";
import { isActive } from "../hooks/useGetExperimentQuery";

/** Props of ExperimentActions. */
export interface ExperimentActionsProps {
  experiment: ExperimentPublic;
}

export function ExperimentActions({ experiment }: ExperimentActionsProps) {
  const navigate = useNavigate();
  const start = useStartExperimentMutation(experiment.id);
  const cancel = useCancelExperimentMutation(experiment.id);
  const duplicate = useDuplicateExperimentMutation();
  const remove = useDeleteExperimentMutation();
  const active = isActive(experiment.status);

  return (
    <div className="actions">
      <button
        type="button"
        className="primary"
        disabled={active || start.isPending || experiment.status === "finished"}
        onClick={() =>
          start.mutate(undefined, {
            onSuccess: (r) =>
              showSuccess(`Queued ${r.queued} runs (${r.already_done} already done)`),
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
      <button
        type="button"
        onClick={() => {
          const name = window.prompt("Name of the copy", `${experiment.name} (copy)`);
          if (!name) return;
          duplicate.mutate(
            { id: experiment.id, name },
            { onSuccess: (copy) => navigate(`/experiments/${copy.id}`), onError: handleError },
          );
        }}
      >
        Duplicate
      </button>
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
