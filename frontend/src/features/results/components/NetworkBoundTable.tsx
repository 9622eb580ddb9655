// The network bound of each configuration next to its measured throughput: per role, hosts x
// the role's iperf3 upload / bytes it sends per request (DOMAIN.md section 7).
import type { ExperimentNetworkBoundPublic } from "@/api";
import { FitMessages, FitWarning } from "@/components/common/FitWarning";
import { formatNumber } from "@/lib/format";
import { useMetricLabels } from "@/lib/hooks/useMetricLabels";
import { useParameterLabels } from "@/lib/hooks/useParameterLabels";
import { THROUGHPUT_METRIC, withUnit } from "@/lib/labels";

/** Props of NetworkBoundTable. */
export interface NetworkBoundTableProps {
  bound: ExperimentNetworkBoundPublic;
}

const ROLES = ["client", "middleware", "server"] as const;

export function NetworkBoundTable({ bound }: NetworkBoundTableProps) {
  const metrics = useMetricLabels();
  const labels = useParameterLabels();
  return (
    <div className="card" data-testid="network-bound">
      <h3>Network bound</h3>
      <p className="hint">
        Requests/s each role's links can carry (a multi-get is one request, as in measured X): hosts
        × measured upload (iperf3) / bytes the role sends per request. {bound.sizes_note}.
      </p>
      <table className="table compact">
        <thead>
          <tr>
            <th>configuration</th>
            <th className="num">{withUnit("measured X", metrics.unit(THROUGHPUT_METRIC))}</th>
            {ROLES.map((r) => (
              <th className="num" key={r}>
                {withUnit(`${r} bound`, metrics.unit(THROUGHPUT_METRIC))}
              </th>
            ))}
            <th>limit</th>
            <th className="num">measured / bound (%)</th>
          </tr>
        </thead>
        <tbody>
          {bound.data.map((row) => (
            <tr key={row.configuration_id}>
              <td>{labels.values(row.values)}</td>
              <td className="num">
                {row.measured_throughput_per_s === null
                  ? "–"
                  : formatNumber(row.measured_throughput_per_s)}
                <FitWarning fit={row.fit} />
              </td>
              {ROLES.map((r) => {
                const b = row.roles.find((x) => x.role === r);
                return (
                  <td className="num" key={r}>
                    {b ? formatNumber(b.bound_per_s) : "–"}
                  </td>
                );
              })}
              <td>{row.limiting_role}</td>
              <td className="num">
                {row.fraction_of_bound === null
                  ? "–"
                  : formatNumber(100 * row.fraction_of_bound, 1)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <FitMessages fits={bound.data.map((row) => row.fit)} />
    </div>
  );
}
