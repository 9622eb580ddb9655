// Response-time histogram of one configuration (repetitions merged), percentiles marked.
import type { Config } from "plotly.js";
import { useMemo, useRef, useState } from "react";
import type { ConfigurationResultPublic, HistogramMetric, RequestType } from "@/api";
import { LazyPlot } from "@/components/common/LazyPlot";
import { PendingBlock } from "@/components/common/PendingBlock";
import { formatNumber } from "@/features/experiments/utils/format";
import { FigureExportButtons } from "@/features/export/components/FigureExportButtons";
import { slug } from "@/features/export/utils/download";
import type { ResultSource } from "@/lib/queryKeys";
import { useGetHistogramQuery } from "../hooks/useGetHistogramQuery";
import { configLabel } from "./BreakdownPlot.utils";
import {
  histogramRange,
  histogramTable,
  histogramTraces,
  percentileLabel,
  percentileMarkers,
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
}

export function HistogramPanel({
  experimentId,
  name,
  source,
  requestType,
  configurations,
}: HistogramPanelProps) {
  const measured = configurations.filter((c) => c.repetitions > 0);
  const [configChoice, setConfig] = useState<number>();
  const configurationId = measured.some((c) => c.configuration_id === configChoice)
    ? configChoice
    : measured[0]?.configuration_id;
  const metrics = METRICS_OF[source];
  const [metricChoice, setMetric] = useState<HistogramMetric>("total");
  const metric = metrics.includes(metricChoice) ? metricChoice : metrics[0];
  const { histogram, isLoading, error } = useGetHistogramQuery(
    experimentId,
    configurationId,
    source,
    requestType,
    metric ?? "client",
  );
  const graphDiv = useRef<HTMLElement | null>(null);
  const traces = useMemo(() => (histogram ? histogramTraces(histogram) : []), [histogram]);
  const layout = useMemo(
    () => ({
      ...(histogram ? percentileMarkers(histogram.percentiles) : {}),
      margin: { l: 70, r: 20, t: 40, b: 50 },
      bargap: 0,
      showlegend: false,
      xaxis: {
        title: { text: `response time (${histogram?.units?.upper_bounds_us ?? "us"})` },
        range: histogram ? histogramRange(histogram) : undefined,
      },
      yaxis: { title: { text: "requests" } },
      paper_bgcolor: "white",
      plot_bgcolor: "white",
    }),
    [histogram],
  );
  const table = useMemo(() => (histogram ? histogramTable(histogram) : undefined), [histogram]);
  const unit = histogram?.units?.value_us ?? "us";

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
          <select value={configurationId ?? ""} onChange={(e) => setConfig(Number(e.target.value))}>
            {measured.map((c) => (
              <option key={c.configuration_id} value={c.configuration_id}>
                #{c.index} {configLabel(c.values)}
              </option>
            ))}
          </select>
        </label>
        {metrics.length > 1 && (
          <label>
            Time
            <select value={metric} onChange={(e) => setMetric(e.target.value as HistogramMetric)}>
              {metrics.map((m) => (
                <option key={m}>{m}</option>
              ))}
            </select>
          </label>
        )}
      </div>
      {configurationId === undefined ? (
        <p className="hint">No measured configuration yet.</p>
      ) : isLoading ? (
        <PendingBlock label="Loading histogram" />
      ) : error || !histogram ? (
        // A 422 here says there is no histogram for this selection: in place, not a toast.
        <p className="hint">Histogram not available: {error?.message}</p>
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
                    {p.in_overflow ? "≥ " : ""}
                    {formatNumber(p.value_us)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <p className="hint">
            {formatNumber(histogram.total, 0)} requests over all repetitions
            {histogram.overflow > 0
              ? `; ${formatNumber(histogram.overflow, 0)} above the last bucket`
              : ""}
            .
          </p>
        </>
      )}
    </div>
  );
}
