// The layout of a metric-vs-factor line chart, still used by the compare page's grouped curves
// (their selection travels in a POST body; the results page draws the server's figures).
import type { Layout } from "plotly.js";

/** How a figure is drawn: axis scales. */
export interface PlotStyle {
  logX?: boolean;
  logY?: boolean;
}

export function plotLayout(
  xTitle: string,
  yTitle: string,
  categoricalX: boolean,
  style: PlotStyle = {},
): Partial<Layout> {
  const xType = categoricalX ? "category" : style.logX ? "log" : "linear";
  return {
    margin: { l: 70, r: 20, t: 20, b: 60 },
    xaxis: { title: { text: xTitle }, type: xType, zeroline: false },
    yaxis: style.logY
      ? { title: { text: yTitle }, type: "log" }
      : { title: { text: yTitle }, rangemode: "tozero" },
    legend: { orientation: "h", y: -0.25 },
    font: { family: "system-ui, sans-serif", size: 12 },
    paper_bgcolor: "white",
    plot_bgcolor: "white",
  };
}
