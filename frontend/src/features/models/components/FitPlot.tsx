// One model-over-measurement figure with the export row every figure has.
import type { Config, Data } from "plotly.js";
import { memo, useRef } from "react";
import { LazyPlot } from "@/components/common/LazyPlot";
import { FigureExportButtons } from "@/features/export/components/FigureExportButtons";

const PLOT_CONFIG: Partial<Config> = { displaylogo: false, responsive: true };

/** Props of FitPlot. */
export interface FitPlotProps {
  title: string;
  traces: Data[];
  xTitle: string;
  yTitle: string;
  /** Base of the exported file names. */
  filename: string;
}

export const FitPlot = memo(function FitPlot({
  title,
  traces,
  xTitle,
  yTitle,
  filename,
}: FitPlotProps) {
  const graphDiv = useRef<HTMLElement | null>(null);
  return (
    <div className="card figure" data-testid={`figure-${filename}`}>
      <div className="section-header">
        <h3>{title}</h3>
        <FigureExportButtons graphDiv={graphDiv} filename={filename} />
      </div>
      <LazyPlot
        data={traces}
        config={PLOT_CONFIG}
        onInitialized={(gd) => {
          graphDiv.current = gd;
        }}
        layout={{
          margin: { l: 70, r: 20, t: 10, b: 90 },
          xaxis: { title: { text: xTitle }, rangemode: "tozero" },
          yaxis: { title: { text: yTitle }, rangemode: "tozero" },
          legend: { orientation: "h", y: -0.25 },
        }}
      />
    </div>
  );
});
