// Parallel coordinates of every configuration of the compared experiments, as the server draws
// them (WebGL, smooth at thousands of lines). Dragging along an axis brushes it: the intervals
// go to the server, which resolves them for the difference table, curves and list.
import type { Config } from "plotly.js";
import { memo, useMemo } from "react";
import { LazyPlot } from "@/components/common/LazyPlot";
import { PendingBlock } from "@/components/common/PendingBlock";
import { FigureExportButtons } from "@/features/export";
import { AddToReport, figureTarget } from "@/features/report";
import { useServerFigureQuery } from "@/lib/hooks/useServerFigureQuery";
import type { CompareFigure } from "@/lib/serverFigure";
import { type BrushRanges, readBrush, withBrush } from "./ParallelCoordinates.utils";

const PLOT_CONFIG: Partial<Config> = { displaylogo: false, responsive: true };

/** Props of ParallelCoordinates. */
export interface ParallelCoordinatesProps {
  /** The compare-parcoords figure of the selection, without the brush (drawn once). */
  figure: CompareFigure;
  ranges: BrushRanges;
  /** Configurations inside the brush (the server's count), null when nothing is brushed. */
  brushed: number | null;
  onBrush: (ranges: BrushRanges) => void;
}

interface DrawnParcoords {
  data: { dimensions?: { constraintrange?: unknown }[] }[];
}

export const ParallelCoordinates = memo(function ParallelCoordinates({
  figure,
  ranges,
  brushed,
  onBrush,
}: ParallelCoordinatesProps) {
  const { figure: fig, error } = useServerFigureQuery(figure);
  const meta = fig?.layout.meta;
  const keys = useMemo(() => meta?.axes ?? [], [meta]);
  const data = useMemo(() => (fig ? withBrush(fig.data, keys, ranges) : []), [fig, keys, ranges]);
  const layout = useMemo(() => {
    if (!fig) return {};
    const { meta: _meta, width: _w, height: _h, ...rest } = fig.layout;
    return rest;
  }, [fig]);
  // The file has the brush drawn as the screen has it.
  const exported = useMemo(
    () => ({ ...figure, body: { ...figure.body, brush: ranges } }),
    [figure, ranges],
  );
  const target = useMemo(() => figureTarget(exported), [exported]);
  return (
    <div className="card figure" data-testid="parcoords">
      <div className="section-header">
        <h3>Parallel coordinates</h3>
        <span className="hint">
          {brushed === null
            ? `${meta?.lines ?? 0} of ${meta?.count ?? 0} configurations (drag along an axis to filter)`
            : `${brushed} of ${meta?.count ?? 0} configurations brushed`}
        </span>
        {brushed !== null && (
          <button type="button" onClick={() => onBrush({})}>
            Clear brushing
          </button>
        )}
        <FigureExportButtons filename="compare-parallel-coordinates" server={exported} />
        {target && <AddToReport experimentId={target.experimentId} view={target.view} />}
      </div>
      {error && !fig ? (
        <p className="hint" data-testid="figure-unavailable">
          No figure for this selection: {error.message}
        </p>
      ) : !fig ? (
        <PendingBlock label="Loading figure" />
      ) : (
        <LazyPlot
          data={data}
          layout={layout}
          config={PLOT_CONFIG}
          height={420}
          onRestyle={(gd) => {
            const dims = (gd as unknown as DrawnParcoords).data[0]?.dimensions ?? [];
            onBrush(readBrush(dims, keys));
          }}
        />
      )}
    </div>
  );
});
