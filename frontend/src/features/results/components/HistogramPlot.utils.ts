// Histogram buckets, percentile names and the CSV of bucket counts (the figure itself is the
// server's "histogram").
import type { HistogramPercentilePublic, HistogramPublic } from "@/api";
import type { SummaryTable } from "@/lib/table";

export interface Bucket {
  lowerUs: number;
  upperUs: number;
  count: number;
}

/** "≥ " for a percentile in the overflow bucket, "< " inside the first bucket, else "". */
export function boundPrefix(p: HistogramPercentilePublic): string {
  if (p.bound === "below") return "< ";
  return p.bound === "above" || p.in_overflow ? "≥ " : "";
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

/** Bucket bounds and counts, the overflow as a last open bucket. */
export function histogramTable(h: HistogramPublic): SummaryTable {
  const unit = h.units?.upper_bounds_us ?? "us";
  const rows: SummaryTable["rows"] = buckets(h).map((b) => [b.lowerUs, b.upperUs, b.count]);
  const last = h.upper_bounds_us[h.upper_bounds_us.length - 1] ?? 0;
  rows.push([last, null, h.overflow]);
  return { header: [`lower bound (${unit})`, `upper bound (${unit})`, "count"], rows };
}
