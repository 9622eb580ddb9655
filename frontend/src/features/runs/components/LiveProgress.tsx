// Live view of the runs in progress: elapsed time and current throughput from the server-sent
// events, and each run's live chart as the server draws it (the finished run's time-series
// figure over the seconds so far), redrawn as seconds arrive.

import { ServerPlot } from "@/features/export";
import { formatNumber } from "@/lib/format";
import { useMetricLabels } from "@/lib/hooks/useMetricLabels";
import { useExperimentEventsSubscription } from "../hooks/useExperimentEventsSubscription";

/** Props of LiveProgress. */
export interface LiveProgressProps {
  experimentId: number;
  active: boolean;
}

export function LiveProgress({ experimentId, active }: LiveProgressProps) {
  const { live, connected } = useExperimentEventsSubscription(experimentId, active);
  const metrics = useMetricLabels();
  const runs = Object.values(live.progress);
  if (!active) return null;
  return (
    <section className="card" data-testid="live-progress">
      <div className="section-header">
        <h2>Live</h2>
        <span className="hint">{connected ? "connected (server-sent events)" : "connecting…"}</span>
      </div>
      {runs.length === 0 ? (
        <p className="hint">Waiting for the first per-second figures of a running run.</p>
      ) : (
        <>
          <table className="table compact">
            <thead>
              <tr>
                <th>run</th>
                <th>source</th>
                <th>elapsed</th>
                <th className="num">{metrics.heading("throughput_per_s")}</th>
                <th className="num">{metrics.heading("response_time_us")}</th>
              </tr>
            </thead>
            <tbody>
              {runs.map((p) => (
                <tr key={p.runId} data-testid={`live-run-${p.runId}`}>
                  <td>{p.runId}</td>
                  <td>{p.source}</td>
                  <td>
                    <progress max={p.runTimeS} value={p.elapsedS} /> {p.elapsedS} / {p.runTimeS} s
                  </td>
                  <td className="num">{formatNumber(p.opsPerSec)}</td>
                  <td className="num">{formatNumber(p.meanLatencyUs)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {runs.map((p) => (
            <ServerPlot
              key={p.runId}
              title={`Run ${p.runId} so far`}
              figure={{ experimentId, name: "live", params: { run_id: p.runId } }}
              filename={`experiment-${experimentId}-run-${p.runId}-live`}
              testId={`live-figure-${p.runId}`}
              height={300}
              refreshOn={p.elapsedS}
              reportable={false}
            />
          ))}
        </>
      )}
    </section>
  );
}
