// Brushing the server's parallel coordinates: Plotly's constraint ranges read back as
// intervals per axis (keyed by the server's axis keys, layout.meta.axes), and the page's brush
// put back into the drawn figure. The figure and the brushing rule are the server's.
import type { Data } from "plotly.js";

/** Axis key -> selected intervals (several per axis when brushed more than once). */
export type BrushRanges = Record<string, [number, number][]>;

interface Dimension {
  constraintrange?: unknown;
  range?: unknown;
}

/** Significant digits a dragged end keeps: the brush is URL state, and 17 digits of a mouse
 * position say nothing. Rounded once, where it is read, so that the page, the URL and the
 * server all hold the same numbers. */
const BRUSH_DIGITS = 6;
const round = (v: number) => Number(v.toPrecision(BRUSH_DIGITS));

/** Plotly's constraintrange ([lo, hi] or [[lo, hi], ...]) as a list of intervals. */
export function normalizeRange(range: unknown): [number, number][] {
  if (!Array.isArray(range) || range.length === 0) return [];
  if (Array.isArray(range[0]))
    return (range as [number, number][]).map(([a, b]) => [round(a), round(b)]);
  return [[round(range[0] as number), round(range[1] as number)]];
}

/** Intervals cut to the axis' range: a drag past an end of an axis reads back beyond it
 * (Plotly's brush overshoots into the axis' padding), which selects nothing more. */
function clamp(ranges: [number, number][], range: unknown): [number, number][] {
  if (!Array.isArray(range) || range.length !== 2) return ranges;
  const lo = Math.min(range[0] as number, range[1] as number);
  const hi = Math.max(range[0] as number, range[1] as number);
  return ranges
    .map(([a, b]): [number, number] => [Math.max(a, lo), Math.min(b, hi)])
    .filter(([a, b]) => a <= b); // wholly beyond an end: nothing on the axis
}

/** The brush Plotly holds after a drag: each dimension's ranges under its axis key. */
export function readBrush(dimensions: readonly Dimension[], keys: readonly string[]): BrushRanges {
  const out: BrushRanges = {};
  dimensions.forEach((d, i) => {
    const key = keys[i];
    const r = clamp(normalizeRange(d.constraintrange), d.range);
    if (key !== undefined && r.length > 0) out[key] = r;
  });
  return out;
}

/** The figure's parcoords trace with the page's brush as constraint ranges: the figure is
 * fetched once, so a re-render must not drop what the user dragged. */
export function withBrush(data: Data[], keys: readonly string[], ranges: BrushRanges): Data[] {
  return data.map((trace) => {
    const t = trace as Data & { type?: string; dimensions?: Dimension[] };
    if (t.type !== "parcoords" || !t.dimensions) return trace;
    const dimensions = t.dimensions.map((d, i) => {
      const { constraintrange: _drop, ...rest } = d;
      const r = ranges[keys[i] ?? ""];
      return r && r.length > 0 ? { ...rest, constraintrange: r.length === 1 ? r[0] : r } : rest;
    });
    return { ...t, dimensions } as Data;
  });
}
