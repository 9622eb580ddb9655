// The summary table: per configuration, mean ± std of throughput and response time.
import type { ConfigurationResultPublic } from "@/api";
import { useParameterLabels } from "@/features/experiments/hooks/useParameterLabels";
import { formatNumber, formatValue } from "@/features/experiments/utils/format";
import { displayUnit } from "@/lib/labels";

/** Props of SummaryTable. */
export interface SummaryTableProps {
  rows: ConfigurationResultPublic[];
  factors: string[];
  units: Record<string, string>;
}

export function SummaryTable({ rows, factors, units }: SummaryTableProps) {
  const labels = useParameterLabels();
  return (
    <table className="table compact" data-testid="summary-table">
      <thead>
        <tr>
          <th>#</th>
          {factors.map((f) => (
            <th key={f}>{labels.label(f)}</th>
          ))}
          <th className="num">reps</th>
          <th className="num">throughput ({units.throughput ?? "ops/s"})</th>
          <th className="num">response time ({displayUnit(units.response_time ?? "us")})</th>
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
          </tr>
        ))}
      </tbody>
    </table>
  );
}
