// One rehearsal: its state, why a build failed, the expiry countdown, each host with the VM
// size it stands for and its link's cap (and where that figure comes from), what is and is
// not like the cloud (the API's words), and Delete (which asks for its name typed again).
import { useState } from "react";
import type { RehearsalPublic } from "@/api";
import { ConfirmByName } from "@/components/common/ConfirmByName";
import { StatusBadge } from "@/components/common/StatusBadge";
import { useDeleteRehearsalMutation } from "../hooks/useRehearsals";
import { ExpiryCountdown } from "./ExpiryCountdown";

/** Props of RehearsalPanel. */
export interface RehearsalPanelProps {
  rehearsal: RehearsalPublic;
}

export function RehearsalPanel({ rehearsal: r }: RehearsalPanelProps) {
  const remove = useDeleteRehearsalMutation(r.id);
  const [confirming, setConfirming] = useState(false);
  const gone = r.status === "deleted";
  return (
    <div className="rehearsal" data-testid={`rehearsal-${r.name}`}>
      <p>
        <StatusBadge status={r.status} />{" "}
        <span className="hint">
          rehearsal on this machine{r.network ? `, hosts on ${r.network}` : ""}
        </span>{" "}
        {!gone && <ExpiryCountdown expiresAt={r.expires_at} testId={`expiry-${r.name}`} />}
        {gone && r.deleted_at && (
          <span className="hint">torn down {new Date(r.deleted_at).toLocaleString()}</span>
        )}
      </p>
      {r.error && (
        <p className="error-text" data-testid={`rehearsal-error-${r.name}`}>
          {r.error}
        </p>
      )}
      <table className="table compact" data-testid={`rehearsal-hosts-${r.name}`}>
        <thead>
          <tr>
            <th>host</th>
            <th>role</th>
            <th>VM size</th>
            <th>link cap (egress)</th>
            <th>figure from</th>
          </tr>
        </thead>
        <tbody>
          {r.hosts.map((h) => (
            <tr key={h.name}>
              <td>{h.name}</td>
              <td>{h.role}</td>
              <td>{h.size}</td>
              <td>{h.mbit_s.toLocaleString()} Mbit/s</td>
              <td>
                {h.basis} <span className="hint">{h.bandwidth_source}</span>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <div className="grid-2" data-testid={`rehearsal-fidelity-${r.name}`}>
        <div>
          <h3>Like the cloud</h3>
          <ul>
            {r.like_the_cloud.map((s) => (
              <li key={s}>{s}</li>
            ))}
          </ul>
        </div>
        <div>
          <h3>Not like the cloud</h3>
          <ul>
            {r.unlike_the_cloud.map((s) => (
              <li key={s}>{s}</li>
            ))}
          </ul>
        </div>
      </div>
      {r.actions.includes("delete") && !confirming && (
        <div className="actions">
          <button
            type="button"
            className="danger"
            disabled={remove.isPending}
            onClick={() => setConfirming(true)}
          >
            Delete…
          </button>
        </div>
      )}
      {confirming && r.actions.includes("delete") && (
        <ConfirmByName
          name={r.name}
          consequence="Deleting ends its queued and running runs and removes its namespaces, links and processes from this machine (its runs' results stay)."
          inputName="confirm-rehearsal-name"
          errorTestId={`error-delete-rehearsal-${r.name}`}
          onConfirm={(typed, done) => remove.mutate(typed, { onSuccess: done })}
          onCancel={() => setConfirming(false)}
          pending={remove.isPending}
          error={remove.error}
        />
      )}
    </div>
  );
}
