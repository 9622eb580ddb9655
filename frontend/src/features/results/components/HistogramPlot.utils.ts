// Histogram bars (uneven buckets allowed), percentile markers and the CSV of bucket counts.
import type { Annotations, Data, Shape } from "plotly.js";
import type { HistogramPercentilePublic, HistogramPublic } from "@/api";
import type { SummaryTable } from "@/features/export/utils/table";
import { displayUnit } from "@/lib/labels";

/** The share of requests the zoomed x range must hold; the rest is a sparse tail. */
export const ZOOM_SHARE = 0.995;

export interface Bucket {
  lowerUs: number;
  upperUs: number;
  count: number;
}

/** Buckets (lower, upper]; the first starts at 0, as the API's layout says. */
/** "≥ " for a percentile in the overflow bucket, "< " inside the first bucket, else "". */
export function boundPrefix(p: HistogramPercentilePublic): string {
  if (p.bound === "below") return "< ";
  return p.bound === "above" || p.in_overflow ? "≥ " : "";
}

export function buckets(h: HistogramPublic): Bucket[] {
  return h.upper_bounds_us.map((upper, i) => ({
    lowerUs: i === 0 ? 0 : (h.upper_bounds_us[i - 1] ?? 0),
    upperUs: upper,
    count: h.counts[i] ?? 0,
  }));
}

/** "p50", "p99.9": how reports name percentiles. */
export function percentileLabel(q: number): string {
  return `p${Number(q.toFixed(3))}`;
}

/**
 * One bar per bucket, as wide as the bucket (memaslap's log2 buckets are uneven). On a log axis
 * the first bucket, which starts at 0, is drawn from half its upper bound.
 */
export function histogramTraces(h: HistogramPublic, logX = false): Data[] {
  const bs = buckets(h).map((b) => (logX && b.lowerUs <= 0 ? { ...b, lowerUs: b.upperUs / 2 } : b));
  const unit = displayUnit(h.units?.upper_bounds_us ?? "us");
  return [
    {
      type: "bar",
      name: "requests",
      x: bs.map((b) => (b.lowerUs + b.upperUs) / 2),
      y: bs.map((b) => b.count),
      width: bs.map((b) => b.upperUs - b.lowerUs),
      // A hairline between bars keeps the buckets visible where counts are level.
      marker: { color: "#2272b4", line: { color: "white", width: 0.5 } },
      hovertemplate: `%{x} ${unit}: %{y}<extra></extra>`,
    },
  ];
}

/**
 * Rows for labels at positions xs (in axis units) so that two labels in one row are at least
 * `gap` apart: greedy, left to right, each label in the lowest row with room.
 */
export function labelRows(xs: number[], gap: number): number[] {
  const order = xs.map((x, i) => [x, i] as const).sort((a, b) => a[0] - b[0]);
  const lastInRow: number[] = [];
  const rows = new Array<number>(xs.length).fill(0);
  for (const [x, i] of order) {
    let row = lastInRow.findIndex((last) => x - last >= gap);
    if (row < 0) row = lastInRow.length;
    lastInRow[row] = x;
    rows[i] = row;
  }
  return rows;
}

/**
 * A vertical dashed line and a label per percentile; one in the overflow is a lower bound.
 * Percentiles at the same value share one label; labels closer than 8 % of the shown range
 * (in log units on a log axis) go to separate rows.
 */
export function percentileMarkers(
  percentiles: HistogramPercentilePublic[],
  range?: [number, number],
  logX = false,
): {
  shapes: Partial<Shape>[];
  annotations: Partial<Annotations>[];
} {
  const groups = new Map<number, HistogramPercentilePublic[]>();
  for (const p of percentiles) groups.set(p.value_us, [...(groups.get(p.value_us) ?? []), p]);
  const labelled = [...groups.entries()];
  const pos = (x: number) => (logX ? Math.log10(Math.max(x, 1e-9)) : x);
  const span = range ? pos(range[1]) - pos(range[0]) : 0;
  const rows = labelRows(
    labelled.map(([x]) => pos(x)),
    span > 0 ? 0.08 * span : 0,
  );
  return {
    shapes: percentiles.map((p) => ({
      type: "line",
      xref: "x",
      yref: "paper",
      x0: p.value_us,
      x1: p.value_us,
      y0: 0,
      y1: 1,
      line: { color: "#c82d4c", width: 1.2, dash: "dash" },
    })),
    annotations: labelled.map(([x, ps], i) => ({
      // Plotly wants log10 positions for annotations on a log axis.
      x: logX ? Math.log10(Math.max(x, 1e-9)) : x,
      xref: "x",
      yref: "paper",
      y: 1.02 + 0.08 * (rows[i] ?? 0),
      yanchor: "bottom",
      text: ps.map((p) => `${boundPrefix(p).trim()}${percentileLabel(p.q)}`).join("/"),
      showarrow: false,
      font: { size: 11, color: "#c82d4c" },
    })),
  };
}

/**
 * The x range worth showing: from the first non-empty bucket to the bucket where ZOOM_SHARE of
 * the requests are reached (and every percentile not in the overflow), padded by 5 %. A sparse
 * tail of slow requests (or empty 100 µs buckets) otherwise squeezes the data into one bar.
 */
export function histogramRange(h: HistogramPublic): [number, number] | undefined {
  const all = buckets(h);
  const inBuckets = all.reduce((sum, b) => sum + b.count, 0);
  const first = all.find((b) => b.count > 0);
  if (!first) return undefined;
  let seen = 0;
  let last = first;
  for (const b of all) {
    seen += b.count;
    if (b.count > 0) last = b;
    if (seen >= ZOOM_SHARE * inBuckets) break;
  }
  const values = h.percentiles.filter((p) => !p.in_overflow).map((p) => p.value_us);
  const lo = Math.min(first.lowerUs, ...values);
  const hi = Math.max(last.upperUs, ...values);
  const pad = 0.05 * (hi - lo);
  return [Math.max(0, lo - pad), hi + pad];
}

/** Requests in buckets beyond a shown range (the tail the zoom leaves out, plus the overflow). */
export function requestsBeyond(h: HistogramPublic, range: [number, number]): number {
  return buckets(h)
    .filter((b) => b.lowerUs >= range[1])
    .reduce((sum, b) => sum + b.count, h.overflow);
}

/** Bucket bounds and counts, the overflow as a last open bucket. */
export function histogramTable(h: HistogramPublic): SummaryTable {
  const unit = h.units?.upper_bounds_us ?? "us";
  const rows: SummaryTable["rows"] = buckets(h).map((b) => [b.lowerUs, b.upperUs, b.count]);
  const last = h.upper_bounds_us[h.upper_bounds_us.length - 1] ?? 0;
  rows.push([last, null, h.overflow]);
  return { header: [`lower bound (${unit})`, `upper bound (${unit})`, "count"], rows };
}
