// A metric vs a factor, one line per series, error bars = std over repetitions, and its exports.
import type { Config } from "plotly.js";
import { memo, type ReactNode, useMemo, useRef } from "react";
import { LazyPlot } from "@/components/common/LazyPlot";
import { FigureExportButtons } from "@/features/export/components/FigureExportButtons";
import type { ServerFigure } from "@/features/export/utils/serverFigure";
import type { SummaryTable } from "@/features/export/utils/table";
import type { Series } from "../utils/series";
import { isCategorical, type PlotStyle, plotLayout, toTraces } from "./ResultsPlot.utils";

const PLOT_CONFIG: Partial<Config> = { displaylogo: false, responsive: true };

/** Props of ResultsPlot. */
export interface ResultsPlotProps {
  title: string;
  series: Series[];
  xTitle: string;
  yTitle: string;
  /** Base of the exported file names. */
  filename: string;
  /** The plotted numbers for the CSV export; no CSV button without it. */
  table?: SummaryTable;
  /** Selectors shown under the title (e.g. a level the figure is pinned to). */
  controls?: ReactNode;
  /** Axis scales and spread; linear axes with error bars without it. */
  style?: PlotStyle;
  /** The same figure on the server, for print exports (PDF/SVG/PNG at column width). */
  server?: ServerFigure;
}

export const ResultsPlot = memo(function ResultsPlot({
  title,
  series,
  xTitle,
  yTitle,
  filename,
  table,
  controls,
  style,
  server,
}: ResultsPlotProps) {
  const graphDiv = useRef<HTMLElement | null>(null);
  const traces = useMemo(() => toTraces(series, style?.band), [series, style?.band]);
  const layout = useMemo(
    () => plotLayout(xTitle, yTitle, isCategorical(series), style),
    [xTitle, yTitle, series, style],
  );
  return (
    <div className="card figure" data-testid={`figure-${filename}`}>
      <div className="section-header">
        <h3>{title}</h3>
        <FigureExportButtons
          graphDiv={graphDiv}
          filename={filename}
          table={table}
          server={server}
        />
      </div>
      {controls && <div className="toolbar">{controls}</div>}
      {series.length === 0 ? (
        <p className="hint">No measurements for this selection yet.</p>
      ) : (
        <LazyPlot
          data={traces}
          layout={layout}
          config={PLOT_CONFIG}
          onInitialized={(gd) => {
            graphDiv.current = gd;
          }}
        />
      )}
    </div>
  );
});
