// A figure drawn from the server's Plotly JSON (the one definition of every figure), kept
// interactive (zoom, hover, legend toggles), with the export row: PDF/SVG/PNG of the same
// figure at a printed width from the server, and the plotted numbers as CSV.
import type { Config } from "plotly.js";
import { memo, type ReactNode, useMemo } from "react";
import { LazyPlot } from "@/components/common/LazyPlot";
import { PendingBlock } from "@/components/common/PendingBlock";
import { Unavailable } from "@/components/common/Unavailable";
import { AddToReport, figureTarget } from "@/features/report";
import { type FigureJson, useServerFigureQuery } from "@/lib/hooks/useServerFigureQuery";
import { type AnyServerFigure, figureRevision } from "@/lib/serverFigure";
import type { SummaryTable } from "@/lib/table";
import { figureTable } from "../utils/figureTable";
import { FigureExportButtons } from "./FigureExportButtons";

const PLOT_CONFIG: Partial<Config> = { displaylogo: false, responsive: true };

/** Props of ServerPlot. */
export interface ServerPlotProps {
  title: ReactNode;
  /** The figure and the page's selection as its query parameters. */
  figure: AnyServerFigure;
  /** Base of the exported file names (and of the test id `figure-<filename>`). */
  filename: string;
  testId?: string;
  /** Selectors shown under the title. */
  controls?: ReactNode;
  /** The CSV: these rows, or (default) the figure's plotted lines. */
  table?: SummaryTable;
  height?: number;
  poll?: boolean;
  /** A value whose change redraws the figure from the server (at most once a second). */
  refreshOn?: string | number;
  /** What usually helps, shown after the server's reason when it has no figure (4xx). */
  unavailable?: ReactNode;
  /** Shown under the figure once drawn, from what the server says beside it (layout.meta). */
  footer?: (meta: NonNullable<FigureJson["layout"]["meta"]>) => ReactNode;
  /** Offer "Add to report" (default): off for figures no report holds (a live run's). */
  reportable?: boolean;
}

export const ServerPlot = memo(function ServerPlot({
  title,
  figure,
  filename,
  testId,
  controls,
  table,
  height,
  poll = false,
  refreshOn,
  unavailable,
  footer,
  reportable = true,
}: ServerPlotProps) {
  const { figure: fig, isLoading, error } = useServerFigureQuery(figure, poll, refreshOn);
  // Redraws of the same selection (polling, live seconds) keep the user's zoom and legend
  // picks: Plotly.react keeps UI state while uirevision stays the same.
  const uirevision = figureRevision(figure);
  const layout = useMemo(() => {
    if (!fig) return {};
    // The screen keeps the server's look but the page sizes the figure (no width, no meta).
    const { meta: _meta, width: _w, height: _h, ...rest } = fig.layout;
    // A copy: Plotly writes zoomed ranges into the layout it draws, never into the cache.
    return { ...structuredClone(rest), uirevision };
  }, [fig, uirevision]);
  const csv = useMemo(() => table ?? (fig ? figureTable(fig) : undefined), [table, fig]);
  const target = useMemo(() => (reportable ? figureTarget(figure) : null), [reportable, figure]);
  return (
    <div className="card figure" data-testid={testId ?? `figure-${filename}`}>
      <div className="section-header">
        <h3>{title}</h3>
        <FigureExportButtons filename={filename} table={csv} server={figure} />
      </div>
      {target && (
        <div className="actions report-actions">
          <AddToReport experimentId={target.experimentId} view={target.view} />
        </div>
      )}
      {controls && <div className="toolbar">{controls}</div>}
      {error && !fig ? (
        <Unavailable
          what="This figure"
          error={error}
          hint={unavailable}
          testId="figure-unavailable"
        />
      ) : isLoading || !fig ? (
        <PendingBlock label="Loading figure" />
      ) : (
        <>
          <LazyPlot data={fig.data} layout={layout} config={PLOT_CONFIG} height={height} />
          {footer?.(fig.layout.meta ?? {})}
        </>
      )}
    </div>
  );
});
