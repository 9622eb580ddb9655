// An experiment's runs with status, timing and errors; filterable by status.
import { Link } from "react-router";
import type { FlagPublic, RunPublic } from "@/api";
import { QualityBadges } from "@/components/common/QualityBadges";
import { StatusBadge } from "@/components/common/StatusBadge";
import { runDuration, useNow } from "../utils/runDuration";

/** Props of RunsTable. */
export interface RunsTableProps {
  runs: RunPublic[];
  configurationIndex: (configurationId: number) => number | undefined;
  /** Flags its configuration puts on a run (an outlier repetition), by run id. */
  repetitionFlags?: Map<number, FlagPublic[]>;
}

export function RunsTable({ runs, configurationIndex, repetitionFlags }: RunsTableProps) {
  const now = useNow(runs.some((r) => r.status === "running"));
  return (
    <table className="table compact" data-testid="runs-table">
      <thead>
        <tr>
          <th>Run</th>
          <th>Configuration</th>
          <th>Repetition</th>
          <th>Status</th>
          <th>Attempt</th>
          <th>Quality</th>
          <th>Started</th>
          <th>Duration</th>
          <th>Error</th>
        </tr>
      </thead>
      <tbody>
        {runs.map((r) => (
          <tr key={r.id}>
            <td>
              <Link to={`/runs/${r.id}`}>{r.id}</Link>
            </td>
            <td>{configurationIndex(r.configuration_id) ?? r.configuration_id}</td>
            <td>{r.repetition}</td>
            <td>
              <StatusBadge status={r.status} />
            </td>
            <td>{r.attempt}</td>
            <td>
              <QualityBadges flags={[...(r.flags ?? []), ...(repetitionFlags?.get(r.id) ?? [])]} />
            </td>
            <td>{r.started_at ? new Date(r.started_at).toLocaleTimeString() : "–"}</td>
            <td>{runDuration(r, now)}</td>
            <td className="error-cell">{r.error ?? ""}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
