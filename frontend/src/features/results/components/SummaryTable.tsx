// The summary table: per configuration, mean ± std of throughput and response time.
import type { ConfigurationResultPublic, ExperimentQualityPublic } from "@/api";
import { QualityBadges } from "@/components/common/QualityBadges";
import { formatNumber, formatValue } from "@/lib/format";
import { useMetricLabels } from "@/lib/hooks/useMetricLabels";
import { useParameterLabels } from "@/lib/hooks/useParameterLabels";

/** Props of SummaryTable. */
export interface SummaryTableProps {
  rows: ConfigurationResultPublic[];
  factors: string[];
  /** Flags over the same window: per configuration, its own and its flagged runs. */
  quality?: ExperimentQualityPublic;
}

export function SummaryTable({ rows, factors, quality }: SummaryTableProps) {
  const byConfig = new Map(quality?.configurations.map((c) => [c.configuration_id, c]));
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
          <th>Quality</th>
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
            <td>
              <ConfigurationQuality flags={byConfig.get(r.configuration_id)} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** A configuration's own flags and how many of its runs carry flags. */
function ConfigurationQuality({
  flags,
}: {
  flags: ExperimentQualityPublic["configurations"][number] | undefined;
}) {
  if (!flags) return null;
  const n = flags.flagged_runs.length;
  return (
    <>
      <QualityBadges flags={flags.flags} />
      {n > 0 && (
        <span className="badge badge-flag" title={`runs ${flags.flagged_runs.join(", ")}`}>
          ⚑ {n} flagged run{n > 1 ? "s" : ""}
        </span>
      )}
    </>
  );
}
