// Shaping aggregated results into plot series: x factor, one line per level of other factors.
import type { ConfigurationResultPublic } from "@/api";
import { formatValue } from "@/features/experiments/utils/format";
import { displayUnit } from "@/lib/labels";

export type Metric = "throughput" | "response_time";

export interface Series {
  name: string;
  x: (number | string)[];
  y: number[];
  /** Standard deviation over repetitions (error bars); 0 where there was one repetition. */
  err: number[];
  /**
   * Per point, "< " or "≥ " when y is only a bound the data cannot resolve (a percentile in
   * the first or the overflow bucket), else "". Absent: every point is a value.
   */
  bounds?: string[];
}

export interface SeriesOptions {
  x: string;
  metric: Metric;
  /** Factors pinned to one level (formatted as text); rows at other levels are left out. */
  filters?: Record<string, string>;
  /** Prefix for series names (the experiment's name, in comparisons). */
  prefix?: string;
  /** Human label of a factor in series names; the raw name without it. */
  labelOf?: (factor: string) => string;
}

export function factorNames(rows: ConfigurationResultPublic[]): string[] {
  const names = new Set<string>();
  for (const r of rows) for (const k of Object.keys(r.values)) names.add(k);
  return [...names];
}

/** Numeric order for numbers, natural text order otherwise (levels of a factor). */
export function compareLevels(a: unknown, b: unknown): number {
  if (typeof a === "number" && typeof b === "number") return a - b;
  return formatValue(a).localeCompare(formatValue(b), "en", { numeric: true });
}

/** The distinct levels of a factor, numerically ordered. */
export function levelsOf(rows: ConfigurationResultPublic[], factor: string): unknown[] {
  const out: unknown[] = [];
  const seen = new Set<string>();
  for (const r of rows) {
    const v = r.values[factor];
    const key = formatValue(v);
    if (!seen.has(key)) {
      seen.add(key);
      out.push(v);
    }
  }
  return out.sort(compareLevels);
}

function metricOf(row: ConfigurationResultPublic, metric: Metric): [number | null, number | null] {
  return metric === "throughput"
    ? [row.throughput_mean, row.throughput_std]
    : [row.response_time_us_mean, row.response_time_us_std];
}

/**
 * One series per combination of the factors that are neither on the x axis nor pinned by a
 * filter. Rows without a measurement (nothing ran yet) are skipped; points are sorted by x.
 */
export function shapeSeries(rows: ConfigurationResultPublic[], options: SeriesOptions): Series[] {
  const filters = options.filters ?? {};
  const groupBy = factorNames(rows).filter((f) => f !== options.x && !(f in filters));
  const groups = new Map<string, ConfigurationResultPublic[]>();
  for (const row of rows) {
    const kept = Object.entries(filters).every(
      ([f, level]) => formatValue(row.values[f]) === level,
    );
    if (!kept || metricOf(row, options.metric)[0] === null) continue;
    const labelOf = options.labelOf ?? ((f: string) => f);
    const label = groupBy.map((f) => `${labelOf(f)}=${formatValue(row.values[f])}`).join(", ");
    groups.set(label, [...(groups.get(label) ?? []), row]);
  }
  const series: Series[] = [];
  for (const [label, members] of groups) {
    members.sort((a, b) => compareLevels(a.values[options.x], b.values[options.x]));
    const name = [options.prefix, label].filter(Boolean).join(" · ") || "all";
    series.push({
      name,
      x: members.map((m) => {
        const v = m.values[options.x];
        return typeof v === "number" ? v : formatValue(v);
      }),
      y: members.map((m) => metricOf(m, options.metric)[0] ?? Number.NaN),
      err: members.map((m) => metricOf(m, options.metric)[1] ?? 0),
    });
  }
  return series.sort((a, b) => a.name.localeCompare(b.name, "en", { numeric: true }));
}

/** "virtual clients per thread (clients)": axis titles always carry the unit when there is one. */
export function axisTitle(name: string, unit: string | null | undefined): string {
  const shown = displayUnit(unit);
  return shown ? `${name} (${shown})` : name;
}
