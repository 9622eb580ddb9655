// Overlaying several experiments: their series on one x factor, names prefixed by experiment.
import type { ResultsPublic } from "@/api";
import {
  factorNames,
  type Metric,
  type Series,
  shapeSeries,
} from "@/features/results/utils/series";

/** Factors present in every selected experiment: the only sensible shared x axes. */
export function commonFactors(results: ResultsPublic[]): string[] {
  const [first, ...rest] = results.map((r) => factorNames(r.data));
  if (!first) return [];
  return first.filter((f) => rest.every((names) => names.includes(f)));
}

export function compareSeries(
  experiments: { name: string; results: ResultsPublic }[],
  x: string,
  metric: Metric,
): Series[] {
  return experiments.flatMap((e) => shapeSeries(e.results.data, { x, metric, prefix: e.name }));
}
