// Percentiles of response time (p50, p90, p99) against the x factor, one line per percentile,
// as the server draws them (the line factor is pinned to one level, like the others).
import { useMemo } from "react";
import type { HistogramMetric } from "@/api";
import { ServerPlot } from "@/features/export";
import { slug } from "@/lib/download";
import { type ResultSource, windowQuery } from "@/lib/queryKeys";
import { pinParams } from "@/lib/serverFigure";
import { useResultsViewState } from "@/lib/urlState/results";
import { useResultsSelection } from "@/lib/urlState/resultsSelection";

const PERCENTILES = [50, 90, 99];
const METRIC_OF: Record<ResultSource, HistogramMetric> = { client: "client", middleware: "total" };

/** Props of PercentilesPanel. */
export interface PercentilesPanelProps {
  x: string;
  /** Factors pinned to one level by the results toolbar. */
  filters: Record<string, string>;
  /** The results' "one line per" factor: pinned here, since lines are percentiles. */
  line: string;
  /** The line factor's human label. */
  lineLabel: string;
  lineLevels: string[];
}

export function PercentilesPanel({
  x,
  filters,
  line,
  lineLabel,
  lineLevels,
}: PercentilesPanelProps) {
  const { experimentId, name, source, requestType, cut, poll } = useResultsSelection();
  const [{ plevel: levelChoice }, setView] = useResultsViewState();
  const level = lineLevels.includes(levelChoice) ? levelChoice : (lineLevels[0] ?? "");
  const params = useMemo(
    () => ({
      source,
      request_type: requestType,
      histogram_metric: METRIC_OF[source],
      percentiles: PERCENTILES.join(","),
      x,
      pin: pinParams(line ? { ...filters, [line]: level } : filters),
      ...windowQuery(cut),
    }),
    [source, requestType, x, filters, line, level, cut],
  );
  return (
    <div data-testid="percentiles-view">
      <ServerPlot
        title="Response-time percentiles"
        figure={{ experimentId, name: "percentiles", params }}
        filename={`${slug(name)}-percentiles-${source}-${requestType}`}
        poll={poll}
        unavailable={
          <span data-testid="percentiles-unavailable">
            (Percentiles need finished runs with stored response-time histograms for this source and
            request type.)
          </span>
        }
        footer={(meta) => (
          <p className="hint" data-testid="percentiles-span">
            {meta.span === "whole_run"
              ? `Whole-run histograms (${meta.span_label}): not the chosen window.`
              : "Percentiles of the chosen window's histograms."}{" "}
            Open markers are bounds: the percentile lies in the first or the overflow bucket.
          </p>
        )}
        controls={
          line && (
            <label>
              percentiles at {lineLabel} =
              <select
                name="plevel"
                value={level}
                onChange={(e) => setView({ plevel: e.target.value })}
              >
                {lineLevels.map((l) => (
                  <option key={l}>{l}</option>
                ))}
              </select>
            </label>
          )
        }
      />
    </div>
  );
}
