// Percentiles of response time (p50, p90, p99) against the x factor, one line per percentile.
import { useMemo } from "react";
import type { HistogramMetric, RequestType } from "@/api";
import { PendingBlock } from "@/components/common/PendingBlock";
import { slug } from "@/features/export/utils/download";
import { displayUnit } from "@/lib/labels";
import type { ResultSource, ResultWindow } from "@/lib/queryKeys";
import { useGetPercentilesQuery } from "../hooks/useGetPercentilesQuery";
import { useResultsViewState } from "../urlState";
import { axisTitle } from "../utils/series";
import { percentileSeries, percentilesTable } from "./PercentilesPlot.utils";
import { ResultsPlot } from "./ResultsPlot";

const PERCENTILES = [50, 90, 99];
const METRIC_OF: Record<ResultSource, HistogramMetric> = { client: "client", middleware: "total" };

/** Props of PercentilesPanel. */
export interface PercentilesPanelProps {
  experimentId: number;
  name: string;
  source: ResultSource;
  requestType: RequestType;
  x: string;
  xTitle: string;
  /** Factors pinned to one level by the results toolbar. */
  filters: Record<string, string>;
  /** The results' "one line per" factor: pinned here, since lines are percentiles. */
  line: string;
  /** The line factor's human label. */
  lineLabel: string;
  lineLevels: string[];
  /** The re-cut window, or null for the stored one. */
  cut: ResultWindow | null;
}

export function PercentilesPanel({
  experimentId,
  name,
  source,
  requestType,
  x,
  xTitle,
  filters,
  line,
  lineLabel,
  lineLevels,
  cut,
}: PercentilesPanelProps) {
  const [{ plevel: levelChoice }, setView] = useResultsViewState();
  const level = lineLevels.includes(levelChoice) ? levelChoice : (lineLevels[0] ?? "");
  const { percentiles, isLoading, error } = useGetPercentilesQuery(
    experimentId,
    source,
    requestType,
    METRIC_OF[source],
    PERCENTILES,
    cut,
  );
  const pins = useMemo(
    () => (line ? { ...filters, [line]: level } : filters),
    [filters, line, level],
  );
  const series = useMemo(
    () => percentileSeries(percentiles?.data ?? [], PERCENTILES, x, pins),
    [percentiles, x, pins],
  );
  const unit = displayUnit(percentiles?.units?.value_us ?? "us") ?? "µs";
  const shown = series.filter((s) => s.x.length > 0);
  const table = useMemo(() => percentilesTable(series, xTitle, unit), [series, xTitle, unit]);

  return (
    <div data-testid="percentiles-view">
      {isLoading ? (
        <PendingBlock label="Loading percentiles" />
      ) : error ? (
        <p className="hint" data-testid="percentiles-unavailable">
          Percentiles appear once finished runs have stored response-time histograms for this source
          and request type.
        </p>
      ) : (
        <>
          <ResultsPlot
            title="Response-time percentiles"
            series={shown}
            xTitle={xTitle}
            yTitle={axisTitle("response time", unit)}
            filename={`${slug(name)}-percentiles-${source}-${requestType}`}
            table={shown.length ? table : undefined}
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
          <p className="hint" data-testid="percentiles-span">
            {percentiles?.span === "whole_run"
              ? `Whole-run histograms (${percentiles.span_label}): not the chosen window.`
              : "Percentiles of the chosen window's histograms."}{" "}
            Open markers are bounds: the percentile lies in the first or the overflow bucket.
          </p>
        </>
      )}
    </div>
  );
}
