// Live view of the runs in progress: elapsed time, current throughput and a live trace.
import type { Config } from "plotly.js";
import { useMemo } from "react";
import { LazyPlot } from "@/components/common/LazyPlot";
import { formatNumber } from "@/features/experiments/utils/format";
import { useExperimentEventsSubscription } from "../hooks/useExperimentEventsSubscription";

const PLOT_CONFIG: Partial<Config> = { displaylogo: false, responsive: true, staticPlot: false };

/** Props of LiveProgress. */
export interface LiveProgressProps {
  experimentId: number;
  active: boolean;
}

export function LiveProgress({ experimentId, active }: LiveProgressProps) {
  const { live, connected } = useExperimentEventsSubscription(experimentId, active);
  const runs = Object.values(live.progress);
  const traces = useMemo(
    () =>
      Object.values(live.progress).map((p) => ({
        type: "scatter" as const,
        mode: "lines" as const,
        name: `run ${p.runId}`,
        x: p.history.map(([t]) => t),
        y: p.history.map(([, v]) => v),
      })),
    [live.progress],
  );
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
                <th className="num">throughput (ops/s)</th>
                <th className="num">mean latency (us)</th>
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
          <LazyPlot
            data={traces}
            config={PLOT_CONFIG}
            height={260}
            layout={{
              margin: { l: 70, r: 20, t: 10, b: 50 },
              xaxis: { title: { text: "elapsed (s)" } },
              yaxis: { title: { text: "throughput (ops/s)" }, rangemode: "tozero" },
            }}
          />
        </>
      )}
    </section>
  );
}
