// Parallel coordinates over all configurations: an axis per experiment, varying parameter and
// metric; brushing (constraint ranges on axes) selects the configurations shown elsewhere.
import type { Data } from "plotly.js";
import type { ConfigurationRowPublic, ConfigurationTablePublic } from "@/api";
import { formatValue } from "@/features/experiments/utils/format";
import { compareLevels } from "@/features/results/utils/series";
import type { MetricLabels, ParameterLabels } from "@/lib/labels";

export interface Axis {
  key: string;
  label: string;
  values: number[];
  tickvals?: number[];
  ticktext?: string[];
}

/** Axis key -> selected intervals (several per axis when brushed more than once). */
export type BrushRanges = Record<string, [number, number][]>;

/** Tick labels sit left of the first axis: long experiment names would be cut. */
function shortName(name: string): string {
  return name.length > 18 ? `${name.slice(0, 8)}…${name.slice(-8)}` : name;
}

/** Rows with every metric measured: a line needs a value on each axis. */
export function measuredRows(table: ConfigurationTablePublic): ConfigurationRowPublic[] {
  return table.data.filter((r) =>
    table.metrics.every((m) => r.metrics[m] !== null && r.metrics[m] !== undefined),
  );
}

function categoricalAxis(key: string, label: string, raw: unknown[]): Axis {
  const levels = [...new Map(raw.map((v) => [formatValue(v), v])).values()].sort(compareLevels);
  const index = new Map(levels.map((v, i) => [formatValue(v), i]));
  return {
    key,
    label,
    values: raw.map((v) => index.get(formatValue(v)) ?? 0),
    tickvals: levels.map((_, i) => i),
    ticktext: levels.map(formatValue),
  };
}

/** Axis titles: the served labels of parameters and metrics ("worker threads",
 * "throughput (ops/s)"). */
export interface AxisLabels {
  parameters: Pick<ParameterLabels, "label">;
  metrics: Pick<MetricLabels, "heading">;
}

/** A numeric parameter: ticks at its levels when there are few (no "4.5 clients"). */
function numericAxis(key: string, label: string, values: number[]): Axis {
  const levels = [...new Set(values)].sort((a, b) => a - b);
  return levels.length <= 12
    ? { key, label, values, tickvals: levels, ticktext: levels.map(String) }
    : { key, label, values };
}

export function parcoordsAxes(
  table: ConfigurationTablePublic,
  rows: ConfigurationRowPublic[],
  names: Map<number, string>,
  labels: AxisLabels,
): Axis[] {
  const axes: Axis[] = [];
  if (new Set(rows.map((r) => r.experiment_id)).size > 1) {
    axes.push(
      categoricalAxis(
        "experiment",
        "experiment",
        rows.map((r) => shortName(names.get(r.experiment_id) ?? `#${r.experiment_id}`)),
      ),
    );
  }
  for (const p of table.parameters) {
    const raw = rows.map((r) => r.values[p]);
    const title = labels.parameters.label(p);
    axes.push(
      raw.every((v) => typeof v === "number")
        ? numericAxis(p, title, raw as number[])
        : categoricalAxis(p, title, raw),
    );
  }
  for (const m of table.metrics) {
    axes.push({
      key: m,
      label: labels.metrics.heading(m),
      values: rows.map((r) => r.metrics[m] ?? Number.NaN),
    });
  }
  return axes;
}

/** The configurations inside every brushed axis' ranges; null when nothing is brushed. */
export function brushedIds(
  rows: ConfigurationRowPublic[],
  axes: Axis[],
  ranges: BrushRanges,
): Set<number> | null {
  const active = axes.filter((a) => (ranges[a.key]?.length ?? 0) > 0);
  if (active.length === 0) return null;
  const out = new Set<number>();
  rows.forEach((r, i) => {
    const inside = active.every((a) => {
      const v = a.values[i] ?? Number.NaN;
      return (ranges[a.key] ?? []).some(([lo, hi]) => v >= lo && v <= hi);
    });
    if (inside) out.add(r.configuration_id);
  });
  return out;
}

/** Plotly's constraintrange ([lo, hi] or [[lo, hi], ...]) as a list of intervals. */
export function normalizeRange(range: unknown): [number, number][] {
  if (!Array.isArray(range) || range.length === 0) return [];
  if (Array.isArray(range[0])) return (range as [number, number][]).map(([a, b]) => [a, b]);
  return [[range[0] as number, range[1] as number]];
}

export function parcoordsTrace(axes: Axis[], ranges: BrushRanges, colourBy: string): Data {
  const colour = axes.find((a) => a.key === colourBy) ?? axes[axes.length - 1];
  return {
    type: "parcoords",
    line: {
      color: colour?.values ?? [],
      colorscale: "Viridis",
      showscale: true,
      colorbar: { title: { text: colour?.label ?? "" } },
    },
    dimensions: axes.map((a) => {
      const r = ranges[a.key];
      return {
        label: a.label,
        values: a.values,
        ...(a.tickvals ? { tickvals: a.tickvals, ticktext: a.ticktext } : {}),
        ...(r && r.length > 0 ? { constraintrange: r.length === 1 ? r[0] : r } : {}),
      };
    }),
  } as Data;
}
