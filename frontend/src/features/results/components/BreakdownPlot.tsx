// Response-time breakdown per configuration (queue, server, processing, network), stacked.
import type { Config } from "plotly.js";
import { memo, useMemo, useRef } from "react";
import type { BreakdownRowPublic } from "@/api";
import { handleError } from "@/components/common/handleError";
import { downloadFigure, FIGURE_FORMATS, LazyPlot } from "@/components/common/LazyPlot";
import { useParameterLabels } from "@/features/experiments/hooks/useParameterLabels";
import { breakdownTraces } from "./BreakdownPlot.utils";

const PLOT_CONFIG: Partial<Config> = { displaylogo: false, responsive: true };

/** Props of BreakdownPlot. */
export interface BreakdownPlotProps {
  rows: BreakdownRowPublic[];
  filename: string;
}

export const BreakdownPlot = memo(function BreakdownPlot({ rows, filename }: BreakdownPlotProps) {
  const graphDiv = useRef<HTMLElement | null>(null);
  const labels = useParameterLabels();
  const traces = useMemo(() => breakdownTraces(rows, labels.label), [rows, labels]);
  return (
    <div className="card figure" data-testid="figure-breakdown">
      <div className="section-header">
        <h3>Response-time breakdown</h3>
        <div className="actions">
          {FIGURE_FORMATS.map((f) => (
            <button
              key={f}
              type="button"
              onClick={() =>
                graphDiv.current && downloadFigure(graphDiv.current, f, filename).catch(handleError)
              }
            >
              {f.toUpperCase()}
            </button>
          ))}
        </div>
      </div>
      <LazyPlot
        data={traces}
        config={PLOT_CONFIG}
        onInitialized={(gd) => {
          graphDiv.current = gd;
        }}
        layout={{
          barmode: "stack",
          margin: { l: 70, r: 20, t: 20, b: 120 },
          xaxis: { title: { text: "configuration" }, automargin: true },
          yaxis: { title: { text: "client response time (ms)" } },
          legend: { orientation: "h", y: 1.1 },
        }}
      />
    </div>
  );
});
