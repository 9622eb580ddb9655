// The group's one bottleneck statement and, below it, each model's answer with its basis (the
// models look at different resources, so they may differ; the statement says why).
import type { GroupBottleneckPublic } from "@/api";

/** Props of BottleneckStatement. */
export interface BottleneckStatementProps {
  bottleneck: GroupBottleneckPublic;
}

export function BottleneckStatement({ bottleneck }: BottleneckStatementProps) {
  return (
    <div data-testid="bottleneck-statement">
      <p className={bottleneck.agree ? undefined : "warning"}>
        <strong>Bottleneck:</strong> {bottleneck.statement}.
      </p>
      <table className="table compact">
        <thead>
          <tr>
            <th>model</th>
            <th>bottleneck</th>
            <th>basis</th>
            <th>why</th>
          </tr>
        </thead>
        <tbody>
          {bottleneck.models.map((m) => (
            <tr key={m.model}>
              <td>{m.model}</td>
              <td>{m.resource}</td>
              <td>{m.basis}</td>
              <td>{m.detail}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
