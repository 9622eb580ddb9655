// Response-time histogram of one configuration (repetitions merged), percentiles marked.
import { useMemo } from "react";
import type { ConfigurationResultPublic, HistogramMetric } from "@/api";
import { PendingBlock } from "@/components/common/PendingBlock";
import { ServerPlot } from "@/features/export";
import { slug } from "@/lib/download";
import { formatNumber } from "@/lib/format";
import { useParameterLabels } from "@/lib/hooks/useParameterLabels";
import { displayUnit } from "@/lib/labels";
import { type ResultSource, windowQuery } from "@/lib/queryKeys";
import { useResultsViewState } from "@/lib/urlState/results";
import { useResultsSelection } from "@/lib/urlState/resultsSelection";
import { HISTOGRAM_PERCENTILES, useGetHistogramQuery } from "../hooks/useGetHistogramQuery";
import { boundPrefix, histogramTable, percentileLabel } from "./HistogramPlot.utils";

/** What each source measures: the load generator's view, or the middleware's parts. */
export const METRICS_OF: Record<ResultSource, HistogramMetric[]> = {
  client: ["client"],
  middleware: ["total", "queue", "server"],
};

/** Props of HistogramPanel. */
export interface HistogramPanelProps {
  configurations: ConfigurationResultPublic[];
}

export function HistogramPanel({ configurations }: HistogramPanelProps) {
  const { experimentId, name, source, requestType, cut } = useResultsSelection();
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
  const table = useMemo(() => (histogram ? histogramTable(histogram) : undefined), [histogram]);
  const unit = displayUnit(histogram?.units?.value_us ?? "us");
  const params = useMemo(
    () => ({
      source,
      request_type: requestType,
      configuration_id: configurationId,
      histogram_metric: metric,
      percentiles: HISTOGRAM_PERCENTILES.join(","),
      log_x: logX,
      ...windowQuery(cut),
    }),
    [source, requestType, configurationId, metric, logX, cut],
  );
  const filename = `${slug(name)}-histogram-${configurationId ?? "none"}-${metric}-${requestType}`;
  const controls = (
    <>
      <label>
        Configuration
        <select
          name="config"
          value={configurationId ?? ""}
          onChange={(e) => setView({ config: Number(e.target.value) })}
        >
          {measured.map((c) => (
            <option key={c.configuration_id} value={c.configuration_id}>
              #{c.index} {labels.values(c.values)}
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
    </>
  );
  const noHistogram = (
    // A 422 here says there is no histogram for this selection: in place, not a toast.
    <p className="hint">
      No histogram for this selection: the runs stored none for these requests.
    </p>
  );
  if (configurationId === undefined) {
    return (
      <div className="card figure" data-testid="figure-histogram">
        <div className="section-header">
          <h3>Response-time histogram</h3>
        </div>
        <div className="toolbar">{controls}</div>
        <p className="hint">No configuration has finished runs yet.</p>
      </div>
    );
  }
  return (
    <ServerPlot
      title="Response-time histogram"
      testId="figure-histogram"
      figure={{ experimentId, name: "histogram", params }}
      filename={filename}
      table={table}
      height={320}
      controls={controls}
      unavailable="(Histograms need runs that stored them for these requests.)"
      footer={(meta) =>
        isLoading ? (
          <PendingBlock label="Loading histogram" />
        ) : error || !histogram ? (
          noHistogram
        ) : (
          <>
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
              {(meta.beyond ?? 0) > 0
                ? `; the axis is zoomed to where the data is, ${formatNumber(meta.beyond ?? 0, 0)} slower requests lie to the right (zoom out with a double click)`
                : ""}
              .
            </p>
          </>
        )
      }
    />
  );
}
