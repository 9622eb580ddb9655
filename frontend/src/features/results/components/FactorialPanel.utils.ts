// Allocation of variation: the share of total variation each effect (and the error) explains.
import type { Data } from "plotly.js";
import type { FactorialPublic } from "@/api";

export function variationTraces(f: FactorialPublic): Data[] {
  // The mean (q0) explains no variation; it is not an effect on the chart.
  const effects = f.effects.filter((e) => e.factors.length > 0);
  return [
    {
      type: "bar",
      x: [...effects.map((e) => e.name), "error"],
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
