// Histogram bars (uneven buckets allowed), percentile markers and the CSV of bucket counts.
import type { Annotations, Data, Shape } from "plotly.js";
import type { HistogramPercentilePublic, HistogramPublic } from "@/api";
import type { SummaryTable } from "@/features/export/utils/table";

export interface Bucket {
  lowerUs: number;
  upperUs: number;
  count: number;
}

/** Buckets (lower, upper]; the first starts at 0, as the API's layout says. */
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

/** One bar per bucket, as wide as the bucket (memaslap's log2 buckets are uneven). */
export function histogramTraces(h: HistogramPublic): Data[] {
  const bs = buckets(h);
  return [
    {
      type: "bar",
      name: "requests",
      x: bs.map((b) => (b.lowerUs + b.upperUs) / 2),
      y: bs.map((b) => b.count),
      width: bs.map((b) => b.upperUs - b.lowerUs),
      // A hairline between bars keeps the buckets visible where counts are level.
      marker: { color: "#2272b4", line: { color: "white", width: 0.5 } },
      hovertemplate: "%{x} us: %{y}<extra></extra>",
    },
  ];
}

/** A vertical dashed line and a label per percentile; one in the overflow is a lower bound. */
export function percentileMarkers(percentiles: HistogramPercentilePublic[]): {
  shapes: Partial<Shape>[];
  annotations: Partial<Annotations>[];
} {
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
    annotations: percentiles.map((p, i) => ({
      x: p.value_us,
      xref: "x",
      yref: "paper",
      // Staggered so close percentiles (p90, p99) do not print over each other.
      y: 1.02 + 0.07 * (i % 2),
      text: `${p.in_overflow ? "≥" : ""}${percentileLabel(p.q)}`,
      showarrow: false,
      font: { size: 11, color: "#c82d4c" },
    })),
  };
}

/**
 * The x range worth showing: from the first to the last non-empty bucket (and every percentile),
 * padded by 5 %; long runs of empty 100 us buckets otherwise squeeze the data into one bar.
 */
export function histogramRange(h: HistogramPublic): [number, number] | undefined {
  const filled = buckets(h).filter((b) => b.count > 0);
  const first = filled[0];
  const last = filled[filled.length - 1];
  if (!first || !last) return undefined;
  const values = h.percentiles.map((p) => p.value_us);
  const lo = Math.min(first.lowerUs, ...values);
  const hi = Math.max(last.upperUs, ...values);
  const pad = 0.05 * (hi - lo);
  return [Math.max(0, lo - pad), hi + pad];
}

/** Bucket bounds and counts, the overflow as a last open bucket. */
export function histogramTable(h: HistogramPublic): SummaryTable {
  const unit = h.units?.upper_bounds_us ?? "us";
  const rows: SummaryTable["rows"] = buckets(h).map((b) => [b.lowerUs, b.upperUs, b.count]);
  const last = h.upper_bounds_us[h.upper_bounds_us.length - 1] ?? 0;
  rows.push([last, null, h.overflow]);
  return { header: [`lower bound (${unit})`, `upper bound (${unit})`, "count"], rows };
}
