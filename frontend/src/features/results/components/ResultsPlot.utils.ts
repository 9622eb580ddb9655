// Plotly traces and layout for a metric-vs-factor line chart with its spread over repetitions.
import type { Data, Layout } from "plotly.js";
import type { BandType } from "../urlState";
import type { Series } from "../utils/series";

/** How a figure is drawn: axis scales and the spread around each mean. */
export interface PlotStyle {
  logX?: boolean;
  logY?: boolean;
  band?: BandType;
}

const COLORS = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2"];

export function toTraces(series: Series[], band: BandType = "bars"): Data[] {
  return series.flatMap((s, i): Data[] => {
    const color = COLORS[i % COLORS.length];
    const bounded = s.bounds?.some((b) => b) ?? false;
    const line: Data = {
      type: "scatter",
      mode: "lines+markers",
      name: s.name,
      x: s.x,
      y: s.y,
      line: { color },
      // A bound (percentile the buckets cannot resolve) is an open marker, hovered as "< y".
      marker: bounded
        ? { color, symbol: (s.bounds ?? []).map((b) => (b ? "circle-open" : "circle")), size: 8 }
        : { color },
      ...(bounded
        ? {
            text: (s.bounds ?? []).map((b) => b.trim()),
            hovertemplate: `${s.name}: %{text} %{y}<extra></extra>`,
          }
        : {}),
      error_y: { type: "data", array: s.err, visible: band === "bars", thickness: 1.2, width: 4 },
    };
    if (band !== "band") return [line];
    // mean ± std as a filled polygon: upper edge left to right, lower edge back.
    const area: Data = {
      type: "scatter",
      mode: "lines",
      x: [...s.x, ...[...s.x].reverse()],
      y: [
        ...s.y.map((y, j) => y + (s.err[j] ?? 0)),
        ...s.y.map((y, j) => y - (s.err[j] ?? 0)).reverse(),
      ],
      fill: "toself",
      fillcolor: `${color}33`,
      line: { width: 0 },
      hoverinfo: "skip",
      showlegend: false,
    };
    return [area, line];
  });
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

/** Categorical axis when any x value is text (ratios, replication words, booleans). */
export function isCategorical(series: Series[]): boolean {
  return series.some((s) => s.x.some((v) => typeof v !== "number"));
}
