// Interactive response time law per configuration: measured X against N / (R + Z).
import type { ExperimentInteractivePublic } from "@/api";
import { formatNumber } from "@/lib/format";
import { useMetricLabels } from "@/lib/hooks/useMetricLabels";
import { useParameterLabels } from "@/lib/hooks/useParameterLabels";
import { THROUGHPUT_METRIC, TIME_UNIT, timeFromSeconds, withUnit } from "@/lib/labels";

/** Props of InteractiveLawTable. */
export interface InteractiveLawTableProps {
  law: ExperimentInteractivePublic;
}

export function InteractiveLawTable({ law }: InteractiveLawTableProps) {
  const metrics = useMetricLabels();
  const labels = useParameterLabels();
  return (
    <div className="card" data-testid="interactive-law">
      <h3>Interactive law X = N / (R + Z)</h3>
      <p className="hint">
        Z = {formatNumber(timeFromSeconds(law.think_time_s), 1)} {TIME_UNIT}
        {law.think_time_estimated ? " (estimated from the data)" : ""}
      </p>
      <table className="table compact">
        <thead>
          <tr>
            <th>configuration</th>
            <th className="num">clients N</th>
            <th className="num">R ({TIME_UNIT})</th>
            <th className="num">{withUnit("measured X", metrics.unit(THROUGHPUT_METRIC))}</th>
            <th className="num">{withUnit("expected X", metrics.unit(THROUGHPUT_METRIC))}</th>
            <th className="num">deviation (%)</th>
          </tr>
        </thead>
        <tbody>
          {law.data.map((r) => (
            <tr key={r.configuration_id}>
              <td>{labels.values(r.values)}</td>
              <td className="num">{r.clients}</td>
              <td className="num">{formatNumber(timeFromSeconds(r.response_time_s), 1)}</td>
              <td className="num">{formatNumber(r.measured_throughput_per_s)}</td>
              <td className="num">{formatNumber(r.expected_throughput_per_s)}</td>
              <td className="num">{formatNumber(r.deviation_percent, 2)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
