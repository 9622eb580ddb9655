// The summary table: per configuration, mean ± std of throughput and response time.
import type {
  ConfigurationResultPublic,
  ExperimentQualityPublic,
  ResultMetricsPublic,
} from "@/api";
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

/** The served metrics the table shows, by their metric-table names (titles and units too). */
const SHOWN = [
  "throughput_per_s",
  "response_time_us",
] as const satisfies readonly (keyof ResultMetricsPublic)[];

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
          {SHOWN.map((m) => (
            <th key={m} className="num">
              {metrics.title(m)}
            </th>
          ))}
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
            {SHOWN.map((m) => (
              <td key={m} className="num">
                {formatNumber(r.metrics[m].mean)} ± {formatNumber(r.metrics[m].std)}
              </td>
            ))}
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
