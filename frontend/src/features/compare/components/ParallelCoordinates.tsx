// Parallel coordinates of every configuration of the compared experiments (WebGL, smooth at
// thousands of lines). Brushing an axis filters the difference table, curves and list.
import type { Config } from "plotly.js";
import { memo, useMemo } from "react";
import type { ConfigurationRowPublic, ConfigurationTablePublic } from "@/api";
import { LazyPlot } from "@/components/common/LazyPlot";
import {
  type Axis,
  type BrushRanges,
  normalizeRange,
  parcoordsTrace,
} from "./ParallelCoordinates.utils";

const PLOT_CONFIG: Partial<Config> = { displaylogo: false, responsive: true };

/** Props of ParallelCoordinates. */
export interface ParallelCoordinatesProps {
  table: ConfigurationTablePublic;
  rows: ConfigurationRowPublic[];
  axes: Axis[];
  ranges: BrushRanges;
  colourBy: string;
  selected: number | null;
  onBrush: (ranges: BrushRanges) => void;
}

interface RestyleDimension {
  constraintrange?: unknown;
}

export const ParallelCoordinates = memo(function ParallelCoordinates({
  table,
  rows,
  axes,
  ranges,
  colourBy,
  selected,
  onBrush,
}: ParallelCoordinatesProps) {
  const data = useMemo(() => [parcoordsTrace(axes, ranges, colourBy)], [axes, ranges, colourBy]);
  const layout = useMemo(() => ({ margin: { l: 110, r: 80, t: 60, b: 30 } }), []);
  return (
    <div className="card figure" data-testid="parcoords">
      <div className="section-header">
        <h3>Parallel coordinates</h3>
        <span className="hint">
          {selected === null
            ? `${rows.length} of ${table.count} configurations (drag along an axis to filter)`
            : `${selected} of ${rows.length} configurations brushed`}
        </span>
        {selected !== null && (
          <button type="button" onClick={() => onBrush({})}>
            Clear brushing
          </button>
        )}
      </div>
      <LazyPlot
        data={data}
        layout={layout}
        config={PLOT_CONFIG}
        height={420}
        onRestyle={(gd) => {
          const dims = ((gd as unknown as { data: { dimensions?: RestyleDimension[] }[] }).data[0]
            ?.dimensions ?? []) as RestyleDimension[];
          const next: BrushRanges = {};
          dims.forEach((d, i) => {
            const axis = axes[i];
            const r = normalizeRange(d.constraintrange);
            if (axis && r.length > 0) next[axis.key] = r;
          });
          onBrush(next);
        }}
      />
    </div>
  );
});
