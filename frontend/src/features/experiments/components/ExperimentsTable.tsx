// One row per experiment: name, template, status, runs done/total, grid size.
import { Link } from "react-router";
import type { ExperimentPublic, TemplatePublic } from "@/api";
import { StatusBadge } from "@/components/common/StatusBadge";
import { runProgress } from "@/lib/format";
import { estimateText } from "../utils/ruleRange";

/** Props of ExperimentsTable. */
export interface ExperimentsTableProps {
  experiments: ExperimentPublic[];
  templates: TemplatePublic[];
}

export function ExperimentsTable({ experiments, templates }: ExperimentsTableProps) {
  const title = (id: string | undefined) => templates.find((t) => t.id === id)?.title ?? id;
  return (
    <table className="table" data-testid="experiments-table">
      <thead>
        <tr>
          <th>Name</th>
          <th>Template</th>
          <th>Status</th>
          <th className="num">Runs done / total</th>
          <th className="num">Configurations</th>
          <th className="num">Estimated</th>
          <th>Created</th>
        </tr>
      </thead>
      <tbody>
        {experiments.map((e) => {
          const { done, total } = runProgress(e.run_counts);
          return (
            <tr key={e.id}>
              <td>
                <Link to={`/experiments/${e.id}`}>{e.name}</Link>
              </td>
              <td>{e.kind === "imported" ? "imported runs" : title(e.template)}</td>
              <td>
                <StatusBadge status={e.status} />
              </td>
              <td className="num">
                {done} / {total || e.preview.runs}
              </td>
              <td className="num">{e.preview.configurations}</td>
              <td className="num">{estimateText(e.preview)}</td>
              <td>{new Date(e.created_at).toLocaleString()}</td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
