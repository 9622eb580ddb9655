// Response-time histogram of one configuration (repetitions merged), percentiles marked.
import type { Config } from "plotly.js";
import { useMemo, useRef } from "react";
import type { ConfigurationResultPublic, HistogramMetric, RequestType } from "@/api";
import { LazyPlot } from "@/components/common/LazyPlot";
import { PendingBlock } from "@/components/common/PendingBlock";
import { useParameterLabels } from "@/features/experiments/hooks/useParameterLabels";
import { formatNumber } from "@/features/experiments/utils/format";
import { FigureExportButtons } from "@/features/export/components/FigureExportButtons";
import { slug } from "@/features/export/utils/download";
import { displayUnit } from "@/lib/labels";
import type { ResultSource, ResultWindow } from "@/lib/queryKeys";
import { useGetHistogramQuery } from "../hooks/useGetHistogramQuery";
import { useResultsViewState } from "../urlState";
import { configLabel } from "./BreakdownPlot.utils";
import {
  boundPrefix,
  histogramRange,
  histogramTable,
  histogramTraces,
  percentileLabel,
  percentileMarkers,
  requestsBeyond,
} from "./HistogramPlot.utils";

const PLOT_CONFIG: Partial<Config> = { displaylogo: false, responsive: true };

/** What each source measures: the load generator's view, or the middleware's parts. */
export const METRICS_OF: Record<ResultSource, HistogramMetric[]> = {
  client: ["client"],
  middleware: ["total", "queue", "server"],
};

/** Props of HistogramPanel. */
export interface HistogramPanelProps {
  experimentId: number;
  name: string;
  source: ResultSource;
  requestType: RequestType;
  configurations: ConfigurationResultPublic[];
  /** The re-cut window, or null for the stored one. */
  cut: ResultWindow | null;
}

export function HistogramPanel({
  experimentId,
  name,
  source,
  requestType,
  configurations,
  cut,
}: HistogramPanelProps) {
  const measured = configurations.filter((c) => c.repetitions > 0);
  const labels = useParameterLabels();
  const [view, setView] = useResultsViewState();
  const { config: configChoice, metric: metricChoice, hlogx: logX } = view;
  const configurationId = measured.some((c) => c.configuration_id === configChoice)
    ? (configChoice ?? undefined)
    : measured[0]?.configuration_id;
  const metrics = METRICS_OF[source];
  const metric = metrics.includes(metricChoice) ? metricChoice : metrics[0];
  const { histogram, isLoading, error } = useGetHistogramQuery(
    experimentId,
    configurationId,
    source,
    requestType,
    metric ?? "client",
    cut,
  );
  const graphDiv = useRef<HTMLElement | null>(null);
  const traces = useMemo(
    () => (histogram ? histogramTraces(histogram, logX) : []),
    [histogram, logX],
  );
  const range = useMemo(() => (histogram ? histogramRange(histogram) : undefined), [histogram]);
  const layout = useMemo(
    () => ({
      ...(histogram ? percentileMarkers(histogram.percentiles, range, logX) : {}),
      margin: { l: 70, r: 20, t: 60, b: 50 },
      bargap: 0,
      showlegend: false,
      xaxis: {
        title: {
          text: `response time (${displayUnit(histogram?.units?.upper_bounds_us ?? "us")})`,
        },
        type: logX ? ("log" as const) : ("linear" as const),
        // A log axis takes its range in decades; the first bucket is drawn from half its bound.
        range:
          range && logX
            ? [
                Math.log10(Math.max(range[0], (histogram?.upper_bounds_us[0] ?? 1) / 2)),
                Math.log10(range[1]),
              ]
            : range,
      },
      yaxis: { title: { text: "requests" } },
      paper_bgcolor: "white",
      plot_bgcolor: "white",
    }),
    [histogram, range, logX],
  );
  const table = useMemo(() => (histogram ? histogramTable(histogram) : undefined), [histogram]);
  const unit = displayUnit(histogram?.units?.value_us ?? "us");
  const beyond = histogram && range ? requestsBeyond(histogram, range) : 0;

  return (
    <div className="card figure" data-testid="figure-histogram">
      <div className="section-header">
        <h3>Response-time histogram</h3>
        <FigureExportButtons
          graphDiv={graphDiv}
          filename={`${slug(name)}-histogram-${configurationId ?? "none"}-${metric}-${requestType}`}
          table={table}
        />
      </div>
      <div className="toolbar">
        <label>
          Configuration
          <select
            name="config"
            value={configurationId ?? ""}
            onChange={(e) => setView({ config: Number(e.target.value) })}
          >
            {measured.map((c) => (
              <option key={c.configuration_id} value={c.configuration_id}>
                #{c.index} {configLabel(c.values, labels.label)}
              </option>
            ))}
          </select>
        </label>
        {metrics.length > 1 && (
          <label>
            Time
            <select
              name="metric"
              value={metric}
              onChange={(e) => setView({ metric: e.target.value as HistogramMetric })}
            >
              {metrics.map((m) => (
                <option key={m}>{m}</option>
              ))}
            </select>
          </label>
        )}
        <label className="inline-check">
          <input
            type="checkbox"
            name="hlogx"
            checked={logX}
            onChange={(e) => setView({ hlogx: e.target.checked })}
          />
          log x
        </label>
      </div>
      {configurationId === undefined ? (
        <p className="hint">No configuration has finished runs yet.</p>
      ) : isLoading ? (
        <PendingBlock label="Loading histogram" />
      ) : error || !histogram ? (
        // A 422 here says there is no histogram for this selection: in place, not a toast.
        <p className="hint">
          No histogram for this selection: the runs stored none for these requests.
        </p>
      ) : (
        <>
          <LazyPlot
            data={traces}
            layout={layout}
            config={PLOT_CONFIG}
            height={320}
            onInitialized={(gd) => {
              graphDiv.current = gd;
            }}
          />
          <table className="table compact" data-testid="percentile-table">
            <thead>
              <tr>
                <th>percentile</th>
                <th className="num">response time ({unit})</th>
              </tr>
            </thead>
            <tbody>
              {histogram.percentiles.map((p) => (
                <tr key={p.q}>
                  <td>{percentileLabel(p.q)}</td>
                  <td className="num">
                    {boundPrefix(p)}
                    {formatNumber(p.value_us)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <p className="hint">
            {formatNumber(histogram.total, 0)} requests over all repetitions
            {histogram.span === "whole_run" ? ` (${histogram.span_label})` : ""}
            {histogram.overflow > 0
              ? `; ${formatNumber(histogram.overflow, 0)} above the last bucket`
              : ""}
            {beyond > 0
              ? `; the axis is zoomed to where the data is, ${formatNumber(beyond, 0)} slower requests lie to the right (zoom out with a double click)`
              : ""}
            .
          </p>
        </>
      )}
    </div>
  );
}
