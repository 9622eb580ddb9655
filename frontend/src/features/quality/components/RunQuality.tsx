// The run page's quality section: the flags of the results in use, each with its reason and
// rule, and every attempt of the run (older successful ones stay listed after a re-run).
import { useEffect } from "react";
import type { FlagPublic } from "@/api";
import { handleError } from "@/components/common/handleError";
import { FLAG_LABELS, QualityBadges } from "@/components/common/QualityBadges";
import { formatNumber } from "@/lib/format";
import { useMetricLabels } from "@/lib/hooks/useMetricLabels";
import { RESPONSE_TIME_METRIC, THROUGHPUT_METRIC } from "@/lib/labels";
import { useGetExperimentQualityQuery } from "../hooks/useGetExperimentQualityQuery";
import { useGetRunAttemptsQuery } from "../hooks/useGetRunAttemptsQuery";

/** Props of RunQuality. */
export interface RunQualityProps {
  runId: number;
  experimentId: number;
  flags: FlagPublic[];
}

export function RunQuality({ runId, experimentId, flags: own }: RunQualityProps) {
  const metrics = useMetricLabels();
  const { attempts, error } = useGetRunAttemptsQuery(runId);
  const { quality } = useGetExperimentQualityQuery(experimentId);
  // Its configuration's flags that name this run (an outlier repetition) belong here too.
  const named = (quality?.configurations ?? []).flatMap((c) =>
    c.flags.filter((f) => f.run_id === runId),
  );
  const flags = [...own, ...named];
  useEffect(() => {
    if (error) handleError(error);
  }, [error]);
  return (
    <section className="card" data-testid="run-quality">
      <h2>Quality</h2>
      {flags.length === 0 ? (
        <p className="hint">No quality flag on the results in use.</p>
      ) : (
        <ul className="quality-reasons">
          {flags.map((f, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: a run's flags never reorder
            <li key={i}>
              <strong>{FLAG_LABELS[f.code]}</strong>: {f.reason}{" "}
              <span className="hint">({f.rule})</span>
            </li>
          ))}
        </ul>
      )}
      {attempts && attempts.count > 0 && (
        <table className="table compact" data-testid="run-attempts">
          <thead>
            <tr>
              <th>Attempt</th>
              <th>Started</th>
              <th className="num">{metrics.title(THROUGHPUT_METRIC)}</th>
              <th className="num">{metrics.title(RESPONSE_TIME_METRIC)}</th>
              <th>Flags</th>
              <th>Results</th>
            </tr>
          </thead>
          <tbody>
            {attempts.data.map((a) => (
              <tr key={a.attempt}>
                <td>{a.attempt}</td>
                <td>{new Date(a.started_at).toLocaleString()}</td>
                <td className="num">{formatNumber(a.outcome?.throughput_per_s)}</td>
                <td className="num">{formatNumber(a.outcome?.response_time_us)}</td>
                <td>{a.outcome ? <QualityBadges flags={a.outcome.flags} /> : "stored nothing"}</td>
                <td>{a.in_use ? "in use" : a.outcome ? "replaced" : "–"}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
