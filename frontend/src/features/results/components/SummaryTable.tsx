// The summary table: per configuration, mean ± std of throughput and response time.
import type { ConfigurationResultPublic } from "@/api";
import { useMetricLabels } from "@/features/experiments/hooks/useMetricLabels";
import { useParameterLabels } from "@/features/experiments/hooks/useParameterLabels";
import { formatNumber, formatValue } from "@/features/experiments/utils/format";

/** Props of SummaryTable. */
export interface SummaryTableProps {
  rows: ConfigurationResultPublic[];
  factors: string[];
}

export function SummaryTable({ rows, factors }: SummaryTableProps) {
  const labels = useParameterLabels();
  const metrics = useMetricLabels();
  // Under a repetition rule each n has its reason ("target met at n=3").
  const ruled = rows.some((r) => r.repetitions_reason);
  return (
    <table className="table compact" data-testid="summary-table">
      <thead>
        <tr>
          <th>#</th>
          {factors.map((f) => (
            <th key={f}>{labels.title(f)}</th>
          ))}
          <th className="num">Reps</th>
          <th className="num">{metrics.title("throughput_per_s")}</th>
          <th className="num">{metrics.title("response_time_us")}</th>
          {ruled && <th>Why this n</th>}
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <tr key={r.configuration_id}>
            <td>{r.index}</td>
            {factors.map((f) => (
              <td key={f}>{formatValue(r.values[f])}</td>
            ))}
            <td className="num">{r.repetitions}</td>
            <td className="num">
              {formatNumber(r.throughput_mean)} ± {formatNumber(r.throughput_std)}
            </td>
            <td className="num">
              {formatNumber(r.response_time_us_mean)} ± {formatNumber(r.response_time_us_std)}
            </td>
            {ruled && <td data-testid="repetitions-reason">{r.repetitions_reason ?? ""}</td>}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
