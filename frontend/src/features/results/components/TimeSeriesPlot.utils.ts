// Plotly traces, layout and CSV of one run's per-second series, with the stable window shaded.
import type { Annotations, Data, Layout, Shape } from "plotly.js";
import type { RunSeriesPublic } from "@/api";
import type { SummaryTable } from "@/features/export/utils/table";
import { displayUnit } from "@/lib/labels";
import type { ResultWindow } from "@/lib/queryKeys";

const THROUGHPUT_COLOR = "#2272b4";
const RESPONSE_COLOR = "#c82d4c";

function unitOf(series: RunSeriesPublic, field: string, fallback: string): string {
  return displayUnit(series.units[field] ?? fallback) ?? fallback;
}

/**
 * Combined throughput (top) and response time (bottom) per second; with several instances,
 * each instance too, hidden until picked in the legend (to check they line up).
 */
export function timeSeriesTraces(series: RunSeriesPublic): Data[] {
  const { time_s, throughput, response_time_us } = series.combined;
  const traces: Data[] = [
    {
      type: "scatter",
      mode: "lines",
      name: "throughput",
      x: time_s,
      y: throughput,
      yaxis: "y",
      line: { color: THROUGHPUT_COLOR, width: 1.5 },
    },
    {
      type: "scatter",
      mode: "lines",
      name: "response time",
      x: time_s,
      y: response_time_us,
      yaxis: "y2",
      line: { color: RESPONSE_COLOR, width: 1.5 },
    },
  ];
  if (series.instances.length < 2) return traces;
  for (const inst of series.instances) {
    const x = inst.throughput.map((_, i) => inst.offset_s + i);
    for (const [y, yaxis, label] of [
      [inst.throughput, "y", "throughput"],
      [inst.response_time_us, "y2", "response time"],
    ] as const) {
      traces.push({
        type: "scatter",
        mode: "lines",
        name: `${inst.source} ${label}`,
        x,
        y,
        yaxis,
        visible: "legendonly",
        line: { dash: "dot", width: 1 },
      });
    }
  }
  return traces;
}

/** The stored stable window as a shaded band; a re-cut window as a dashed outline over it. */
export function windowShapes(stable: ResultWindow, cut?: ResultWindow): Partial<Shape>[] {
  const band = (w: ResultWindow): Partial<Shape> => ({
    type: "rect",
    xref: "x",
    yref: "paper",
    x0: w.start,
    x1: w.end,
    y0: 0,
    y1: 1,
    layer: "below",
  });
  const shapes: Partial<Shape>[] = [
    { ...band(stable), fillcolor: "rgba(34, 114, 180, 0.12)", line: { width: 0 } },
  ];
  if (cut) {
    shapes.push({
      ...band(cut),
      fillcolor: "rgba(0, 0, 0, 0)",
      line: { width: 1.5, dash: "dash" },
    });
  }
  return shapes;
}

function windowLabels(stable: ResultWindow, cut?: ResultWindow): Partial<Annotations>[] {
  const label = (w: ResultWindow, text: string, y: number): Partial<Annotations> => ({
    x: (w.start + w.end) / 2,
    y,
    xref: "x",
    yref: "paper",
    text,
    showarrow: false,
    font: { size: 11, color: "#555" },
  });
  const out = [label(stable, "stable window", 1.04)];
  if (cut) out.push(label(cut, "re-cut window", 0.5));
  return out;
}

export function storedWindow(series: RunSeriesPublic): ResultWindow {
  return { start: series.window_start_s, end: series.window_end_s };
}

/** Two stacked panels sharing the time axis, seconds since the load generators started. */
export function timeSeriesLayout(series: RunSeriesPublic, cut?: ResultWindow): Partial<Layout> {
  const stable = storedWindow(series);
  return {
    margin: { l: 70, r: 20, t: 30, b: 50 },
    xaxis: {
      title: { text: `time since load start (${unitOf(series, "time_s", "s")})` },
      anchor: "y2",
      zeroline: false,
    },
    yaxis: {
      domain: [0.55, 1],
      title: { text: `throughput (${unitOf(series, "throughput", "ops/s")})` },
      rangemode: "tozero",
    },
    yaxis2: {
      domain: [0, 0.45],
      anchor: "x",
      title: { text: `response time (${unitOf(series, "response_time_us", "us")})` },
      rangemode: "tozero",
    },
    shapes: windowShapes(stable, cut),
    annotations: windowLabels(stable, cut),
    legend: { orientation: "h", y: -0.2 },
    font: { family: "system-ui, sans-serif", size: 12 },
    paper_bgcolor: "white",
    plot_bgcolor: "white",
  };
}

/** Second, combined throughput and response time, and whether the second is measured. */
export function timeSeriesTable(series: RunSeriesPublic): SummaryTable {
  const { time_s, throughput, response_time_us } = series.combined;
  const { start, end } = storedWindow(series);
  return {
    header: [
      `time (${unitOf(series, "time_s", "s")})`,
      `throughput (${unitOf(series, "throughput", "ops/s")})`,
      `response time (${unitOf(series, "response_time_us", "us")})`,
      "in stable window",
    ],
    rows: time_s.map((t, i) => [
      t,
      throughput[i] ?? null,
      response_time_us[i] ?? null,
      t >= start && t < end ? "yes" : "no",
    ]),
  };
}
