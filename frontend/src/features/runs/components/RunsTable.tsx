// An experiment's runs with status, timing and errors; filterable by status.
import { Link } from "react-router";
import type { RunPublic } from "@/api";
import { StatusBadge } from "@/components/common/StatusBadge";
import { formatDuration } from "@/features/experiments/utils/format";

/** Props of RunsTable. */
export interface RunsTableProps {
  runs: RunPublic[];
  configurationIndex: (configurationId: number) => number | undefined;
}

function elapsed(run: RunPublic): string {
  if (!run.started_at) return "–";
  const end = run.finished_at ? new Date(run.finished_at) : new Date();
  return formatDuration((end.getTime() - new Date(run.started_at).getTime()) / 1000);
}

export function RunsTable({ runs, configurationIndex }: RunsTableProps) {
  return (
    <table className="table compact" data-testid="runs-table">
      <thead>
        <tr>
          <th>Run</th>
          <th>Configuration</th>
          <th>Repetition</th>
          <th>Status</th>
          <th>Attempt</th>
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
            <td>{r.started_at ? new Date(r.started_at).toLocaleTimeString() : "–"}</td>
            <td>{elapsed(r)}</td>
            <td className="error-cell">{r.error ?? ""}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
