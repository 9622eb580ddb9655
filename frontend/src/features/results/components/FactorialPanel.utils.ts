// Allocation of variation: the share of total variation each effect (and the error) explains.
import type { Data } from "plotly.js";
import type { FactorialPublic } from "@/api";

/** Bars per effect, named by its factors' labels ("a × b"); raw names without labelOf. */
export function variationTraces(
  f: FactorialPublic,
  labelOf: (name: string) => string = (n) => n,
): Data[] {
  // The mean (q0) explains no variation; it is not an effect on the chart.
  const effects = f.effects.filter((e) => e.factors.length > 0);
  return [
    {
      type: "bar",
      x: [...effects.map((e) => e.factors.map(labelOf).join(" × ")), "error"],
      y: [...effects.map((e) => e.variation_percent), f.error_percent],
      marker: {
        color: [
          ...effects.map((e) => (e.significant === false ? "#b6c2cc" : "#2272b4")),
          "#c82d4c",
        ],
      },
    },
  ];
}
