// The utilization law over the measurements: per configuration, the worker pool's busy time the
// middleware reports (each request's worker hold time, summed per second), its utilization per
// worker and the service demand D = m U / X per client request, beside the model inputs.
import type { MeasuredUtilizationPublic } from "@/api";
import { formatNumber } from "@/lib/format";
import { useMetricLabels } from "@/lib/hooks/useMetricLabels";
import { THROUGHPUT_METRIC, TIME_UNIT, timeFromSeconds, withUnit } from "@/lib/labels";

export function MeasuredUtilizationTable({ rows }: { rows: MeasuredUtilizationPublic[] }) {
  const metrics = useMetricLabels();
  if (rows.length === 0) {
    return (
      <p className="hint" data-testid="measured-utilization-none">
        No measured utilization: the middleware did not report response and queue times.
      </p>
    );
  }
  const sorted = [...rows].sort((a, b) => a.clients - b.clients);
  const last = sorted[sorted.length - 1];
  return (
    <>
      <h3>Measured utilization and service demand (utilization law)</h3>
      <table className="table compact" data-testid="measured-utilization">
        <thead>
          <tr>
            <th className="num">N</th>
            <th>station</th>
            <th className="num">servers m</th>
            <th className="num">busy servers</th>
            <th className="num">U per server (%)</th>
            <th className="num">{withUnit("X", metrics.unit(THROUGHPUT_METRIC))}</th>
            <th className="num">D = m U / X ({TIME_UNIT})</th>
            <th>note</th>
          </tr>
        </thead>
        <tbody>
          {sorted.map((u) => (
            <tr key={`${u.configuration_id}-${u.station}`}>
              <td className="num">{u.clients}</td>
              <td>{u.station}</td>
              <td className="num">{u.servers}</td>
              <td className="num">{formatNumber(u.busy, 2)}</td>
              <td className="num">{formatNumber(u.utilization * 100, 1)}</td>
              <td className="num">{formatNumber(u.throughput_per_s, 1)}</td>
              <td className="num">{formatNumber(timeFromSeconds(u.demand_s), 1)}</td>
              <td className="warning">{u.note ?? ""}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {last && (
        <p className="hint">
          Source (at N = {last.clients}): {last.source}
        </p>
      )}
    </>
  );
}
