// Traces of the factorial design's diagnostic plots (Jain ch. 18): residuals vs predicted,
// normal QQ of residuals, half-normal plot of effects with Lenth's lines, main effects and
// interactions. Values are on the model's scale (log10 y for the multiplicative model).
import type { Data } from "plotly.js";
import type { FactorialPublic } from "@/api";

const POINT = "#2272b4";
const LINE = "#c82d4c";

/** Residual against prediction of every observation; a horizontal zero line. */
export function residualTraces(f: FactorialPublic): Data[] {
  const x = f.predicted.flat();
  const y = f.residuals.flat();
  const lo = Math.min(...x);
  const hi = Math.max(...x);
  return [
    { type: "scatter", mode: "markers", name: "observation", x, y, marker: { color: POINT } },
    {
      type: "scatter",
      mode: "lines",
      name: "zero",
      x: [lo, hi],
      y: [0, 0],
      line: { color: LINE, dash: "dot" },
      hoverinfo: "skip",
    },
  ];
}

/** Sorted residuals against normal quantiles, with the line of slope s through 0. */
export function qqTraces(f: FactorialPublic): Data[] {
  const x = f.qq_normal_quantiles;
  const y = f.qq_residuals;
  const n = y.length;
  const mean = y.reduce((a, b) => a + b, 0) / Math.max(n, 1);
  const s = Math.sqrt(y.reduce((a, b) => a + (b - mean) ** 2, 0) / Math.max(n - 1, 1));
  const lo = Math.min(...x);
  const hi = Math.max(...x);
  return [
    { type: "scatter", mode: "markers", name: "residual", x, y, marker: { color: POINT } },
    {
      type: "scatter",
      mode: "lines",
      name: "normal (slope = residual std)",
      x: [lo, hi],
      y: [mean + s * lo, mean + s * hi],
      line: { color: LINE, dash: "dot" },
    },
  ];
}

/** |effect| against half-normal quantiles, labelled; Lenth's PSE line and margin of error. */
export function halfNormalTraces(f: FactorialPublic): Data[] {
  const l = f.lenth;
  if (!l) return [];
  const x = l.half_normal_quantiles;
  const hi = Math.max(...x, 0);
  const out: Data[] = [
    {
      type: "scatter",
      mode: "text+markers",
      name: "|effect|",
      x,
      y: l.half_normal_abs_effects,
      text: l.half_normal_names,
      textposition: "top left",
      marker: { color: POINT },
    },
    {
      type: "scatter",
      mode: "lines",
      name: `Lenth PSE line (slope ${l.pse.toPrecision(3)})`,
      x: [0, hi],
      y: [0, l.pse * hi],
      line: { color: LINE, dash: "dot" },
    },
  ];
  if (f.replications === 1) {
    out.push({
      type: "scatter",
      mode: "lines",
      name: "Lenth margin of error (95%)",
      x: [0, hi],
      y: [l.margin_of_error, l.margin_of_error],
      line: { color: "#7f7f7f", dash: "dash" },
    });
  }
  return out;
}

/** Mean response at the low and high level of each factor, one line per factor. */
export function mainEffectTraces(f: FactorialPublic): Data[] {
  return Object.entries(f.main_effects).map(
    ([factor, means]): Data => ({
      type: "scatter",
      mode: "lines+markers",
      name: factor,
      x: ["low (−1)", "high (+1)"],
      y: means.slice(0, 2),
    }),
  );
}

/** For each pair A:B, mean response against A's level, one line per level of B. */
export function interactionTraces(f: FactorialPublic): Data[] {
  return Object.entries(f.interactions).flatMap(([pair, cells]) => {
    const [a, b] = pair.split(":");
    const [mm, pm, mp, pp] = cells.map((v) => v ?? Number.NaN);
    return [
      {
        type: "scatter",
        mode: "lines+markers",
        name: `${pair}: ${b} = −1`,
        x: [`${a} −1`, `${a} +1`],
        y: [mm, pm],
      },
      {
        type: "scatter",
        mode: "lines+markers",
        name: `${pair}: ${b} = +1`,
        x: [`${a} −1`, `${a} +1`],
        y: [mp, pp],
        line: { dash: "dash" },
      },
    ] as Data[];
  });
}
