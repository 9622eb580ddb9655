// Percentiles of response time against a factor: one series per percentile, and their CSV.
import type { ConfigPercentilesPublic } from "@/api";
import { formatValue } from "@/features/experiments/utils/format";
import type { SummaryTable } from "@/features/export/utils/table";
import { compareLevels, type Series } from "../utils/series";
import { boundPrefix, percentileLabel } from "./HistogramPlot.utils";

/**
 * One series per asked percentile over the configurations kept by `pins` (factor -> level as
 * text), sorted by the x factor; configurations without histograms are left out.
 */
export function percentileSeries(
  rows: ConfigPercentilesPublic[],
  qs: number[],
  x: string,
  pins: Record<string, string>,
): Series[] {
  const kept = rows
    .filter((r) => r.percentiles.length > 0)
    .filter((r) => Object.entries(pins).every(([f, level]) => formatValue(r.values[f]) === level))
    .sort((a, b) => compareLevels(a.values[x], b.values[x]));
  return qs.map((q) => {
    const points = kept.flatMap((r) => {
      const p = r.percentiles.find((v) => v.q === q);
      const v = r.values[x];
      return p
        ? [{ x: typeof v === "number" ? v : formatValue(v), y: p.value_us, bound: boundPrefix(p) }]
        : [];
    });
    return {
      name: percentileLabel(q),
      x: points.map((p) => p.x),
      y: points.map((p) => p.y),
      err: [],
      bounds: points.map((p) => p.bound),
    };
  });
}

/**
 * The plotted points as a table: x level, then one column per percentile; a bound reads as
 * text ("< 100", "≥ 50000"), never as a plain number.
 */
export function percentilesTable(series: Series[], xTitle: string, unit: string): SummaryTable {
  const xs: (number | string)[] = [];
  for (const s of series) for (const v of s.x) if (!xs.includes(v)) xs.push(v);
  xs.sort(compareLevels);
  return {
    header: [xTitle, ...series.map((s) => `${s.name} (${unit})`)],
    rows: xs.map((v) => [
      v,
      ...series.map((s) => {
        const i = s.x.indexOf(v);
        if (i < 0) return null;
        const bound = s.bounds?.[i] ?? "";
        return bound ? `${bound}${s.y[i]}` : (s.y[i] ?? null);
      }),
    ]),
  };
}
