// Time series of one run: per-second throughput and response time, stable window shaded.
import { useEffect, useMemo } from "react";
import type { ConfigurationResultPublic } from "@/api";
import { handleError } from "@/components/common/handleError";
import { ServerPlot } from "@/features/export";
import { useGetRunsQuery } from "@/features/runs";
import { slug } from "@/lib/download";
import { useParameterLabels } from "@/lib/hooks/useParameterLabels";
import { windowQuery } from "@/lib/queryKeys";
import { useResultsViewState } from "@/lib/urlState/results";
import { useResultsSelection } from "@/lib/urlState/resultsSelection";
import { useGetRunSeriesQuery } from "../hooks/useGetRunSeriesQuery";
import { timeSeriesTable } from "./TimeSeriesPlot.utils";

/** Props of TimeSeriesPanel. */
export interface TimeSeriesPanelProps {
  /** The grid, for labelling runs by their configuration. */
  configurations: ConfigurationResultPublic[];
}

export function TimeSeriesPanel({ configurations }: TimeSeriesPanelProps) {
  const { experimentId, name, source, requestType, cut, poll } = useResultsSelection();
  const { runs, error: runsError } = useGetRunsQuery(experimentId, { status: "succeeded", poll });
  const runList = runs?.data ?? [];
  const labels = useParameterLabels();
  const [{ run: choice }, setView] = useResultsViewState();
  const runId = runList.some((r) => r.id === choice) ? (choice ?? undefined) : runList[0]?.id;
  const { series, isLoading, error } = useGetRunSeriesQuery(
    experimentId,
    runId,
    source,
    requestType,
  );
  useEffect(() => {
    const failure = runsError ?? error;
    if (failure) handleError(failure);
  }, [runsError, error]);
  const table = useMemo(() => (series ? timeSeriesTable(series) : undefined), [series]);
  const params = useMemo(
    () => ({ source, request_type: requestType, run_id: runId, ...windowQuery(cut) }),
    [source, requestType, runId, cut],
  );
  const labelOf = (configurationId: number) => {
    const c = configurations.find((x) => x.configuration_id === configurationId);
    return c ? `#${c.index} ${labels.values(c.values)}` : `configuration ${configurationId}`;
  };
  const empty = !series || series.combined.time_s.length === 0;
  const controls = (
    <label>
      Run
      <select
        name="run"
        value={runId ?? ""}
        onChange={(e) => setView({ run: Number(e.target.value) })}
      >
        {runList.map((r) => (
          <option key={r.id} value={r.id}>
            {labelOf(r.configuration_id)} · repetition {r.repetition}
          </option>
        ))}
      </select>
    </label>
  );
  // The figure stays mounted while another run loads (ServerPlot keeps the last one drawn).
  if (runId === undefined || (!isLoading && empty)) {
    return (
      <div className="card figure" data-testid="figure-time-series">
        <div className="section-header">
          <h3>Time series of one run</h3>
        </div>
        <div className="toolbar">{controls}</div>
        {runId === undefined ? (
          <p className="hint">No finished run yet.</p>
        ) : (
          <p className="hint">No per-second series stored for this run and selection.</p>
        )}
      </div>
    );
  }
  return (
    <ServerPlot
      title="Time series of one run"
      testId="figure-time-series"
      figure={{ experimentId, name: "time-series", params }}
      filename={`${slug(name)}-series-run-${runId}-${source}-${requestType}`}
      table={table}
      height={460}
      poll={poll}
      controls={controls}
      footer={() =>
        series && (
          <p className="hint" data-testid="series-window">
            Shaded: stable window {series.window_start_s}–{series.window_end_s} s
            {series.window_stored ? "" : " (from the design; the run stored no summary)"}
            {cut ? `; dashed: the re-cut window ${cut.start}–${cut.end} s` : ""}. Re-cut the results
            above to measure another window.
          </p>
        )
      }
    />
  );
}
