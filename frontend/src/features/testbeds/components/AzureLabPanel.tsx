// One Azure lab's state: each planned resource as created, being created or pending, why a
// creation failed, the expiry countdown, and Stop (deallocate), Start and Delete (which asks
// for the lab's name typed again).
import { useEffect, useState } from "react";
import type { AzureLabPublic } from "@/api";
import { ConfirmByName } from "@/components/common/ConfirmByName";
import { handleError } from "@/components/common/handleError";
import { StatusBadge } from "@/components/common/StatusBadge";
import { useAzureLabActionMutation, useDeleteAzureLabMutation } from "../hooks/useAzureLabs";
import { BUSY, resourceStates } from "../utils/azureForm";
import { ExpiryCountdown } from "./ExpiryCountdown";

/** Props of AzureLabPanel. */
export interface AzureLabPanelProps {
  lab: AzureLabPublic;
}

const MARK = { created: "✓", creating: "…", pending: "·" } as const;

export function AzureLabPanel({ lab }: AzureLabPanelProps) {
  const action = useAzureLabActionMutation(lab.id);
  const remove = useDeleteAzureLabMutation(lab.id);
  const [confirming, setConfirming] = useState(false);
  useEffect(() => {
    if (action.error) handleError(action.error);
  }, [action.error]);
  const states = resourceStates(lab);
  const created = states.filter((s) => s.state === "created").length;
  const showResources = lab.status === "queued" || lab.status === "creating" || lab.error;
  const busy = BUSY.has(lab.status) || action.isPending || remove.isPending;
  // The janitor deletes an expired lab's group and records when, without the delete action.
  const gone = lab.status === "deleted" || lab.deleted_at !== null;
  return (
    <div className="azure-lab" data-testid={`azure-lab-${lab.name}`}>
      <p>
        <StatusBadge status={lab.status} /> <span className="hint">{lab.resource_group}</span>{" "}
        {lab.expires_at && !lab.deleted_at && (
          <ExpiryCountdown expiresAt={lab.expires_at} testId={`expiry-${lab.name}`} />
        )}
      </p>
      {lab.error && (
        <p className="error-text" data-testid={`azure-lab-error-${lab.name}`}>
          {lab.error}
        </p>
      )}
      {showResources && states.length > 0 && (
        <>
          <p className="hint" data-testid={`azure-progress-${lab.name}`}>
            {created} of {states.length} resources created
          </p>
          <progress className="progress-bar" max={states.length} value={created} />
          <ul className="resource-list">
            {states.map((s) => (
              <li key={s.label} className={`resource-${s.state}`} data-state={s.state}>
                <span aria-hidden>{MARK[s.state]}</span> {s.label}
              </li>
            ))}
          </ul>
        </>
      )}
      {!gone && (
        <div className="actions">
          {/* Only what the lab's state allows, as the API's transition table says. */}
          {lab.actions.includes("stop") && (
            <button type="button" disabled={busy} onClick={() => action.mutate("stop")}>
              Stop (deallocate)
            </button>
          )}
          {lab.actions.includes("start") && (
            <button type="button" disabled={busy} onClick={() => action.mutate("start")}>
              Start
            </button>
          )}
          {lab.actions.includes("delete") && !confirming && (
            <button
              type="button"
              className="danger"
              disabled={busy}
              onClick={() => setConfirming(true)}
            >
              Delete…
            </button>
          )}
        </div>
      )}
      {confirming && lab.status !== "deleting" && !gone && (
        <ConfirmByName
          name={lab.name}
          consequence={
            lab.status === "failed" && lab.progress.length === 0
              ? "Its creation made nothing on Azure: deleting removes this record only."
              : `Deleting removes its resource group ${lab.resource_group} and every VM in it.`
          }
          inputName="confirm-name"
          errorTestId={`error-delete-${lab.name}`}
          onConfirm={(typed, done) => remove.mutate(typed, { onSuccess: done })}
          onCancel={() => setConfirming(false)}
          pending={remove.isPending}
          error={remove.error}
        />
      )}
    </div>
  );
}
