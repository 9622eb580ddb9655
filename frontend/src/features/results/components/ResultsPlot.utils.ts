// Plotly traces and layout for a metric-vs-factor line chart with error bars.
import type { Data, Layout } from "plotly.js";
import type { Series } from "../utils/series";

export function toTraces(series: Series[]): Data[] {
  return series.map((s) => ({
    type: "scatter",
    mode: "lines+markers",
    name: s.name,
    x: s.x,
    y: s.y,
    error_y: { type: "data", array: s.err, visible: true, thickness: 1.2, width: 4 },
  }));
}

export function plotLayout(xTitle: string, yTitle: string, categoricalX: boolean): Partial<Layout> {
  return {
    margin: { l: 70, r: 20, t: 20, b: 60 },
    xaxis: { title: { text: xTitle }, type: categoricalX ? "category" : "linear", zeroline: false },
    yaxis: { title: { text: yTitle }, rangemode: "tozero" },
    legend: { orientation: "h", y: -0.25 },
    font: { family: "system-ui, sans-serif", size: 12 },
    paper_bgcolor: "white",
    plot_bgcolor: "white",
  };
}

/** Categorical axis when any x value is text (ratios, replication words, booleans). */
export function isCategorical(series: Series[]): boolean {
  return series.some((s) => s.x.some((v) => typeof v !== "number"));
}
