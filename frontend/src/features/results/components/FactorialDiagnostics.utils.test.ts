import { describe, expect, it } from "vitest";
import type { FactorialPublic } from "@/api";
import {
  halfNormalTraces,
  interactionTraces,
  mainEffectTraces,
  qqTraces,
  residualTraces,
} from "./FactorialDiagnostics.utils";

const F = {
  factors: ["A", "B"],
  replications: 1,
  multiplicative: false,
  predicted: [[1], [2], [3], [4]],
  residuals: [[0.5], [-0.5], [0.25], [-0.25]],
  qq_residuals: [-0.5, -0.25, 0.25, 0.5],
  qq_normal_quantiles: [-1.15, -0.32, 0.32, 1.15],
  lenth: {
    pse: 0.5,
    margin_of_error: 2.1,
    simultaneous_margin: 3,
    half_normal_names: ["A:B", "B", "A"],
    half_normal_abs_effects: [0.1, 1, 3],
    half_normal_quantiles: [0.2, 0.67, 1.38],
  },
  main_effects: { A: [1.5, 3.5], B: [2, 3] },
  interactions: { "A:B": [1, 2, 3, 4] },
} as unknown as FactorialPublic;

describe("factorial diagnostics", () => {
  it("plot every residual against its prediction, with a zero line across them", () => {
    const [points, zero] = residualTraces(F);
    expect(points).toMatchObject({ x: [1, 2, 3, 4], y: [0.5, -0.5, 0.25, -0.25] });
    expect(zero).toMatchObject({ x: [1, 4], y: [0, 0] });
  });

  it("draw the QQ reference line with the residuals' standard deviation as slope", () => {
    const line = qqTraces(F)[1] as { y: number[] };
    const s = Math.sqrt((0.25 + 0.0625 + 0.0625 + 0.25) / 3);
    expect(line.y[1]).toBeCloseTo(s * 1.15, 12);
  });

  it("label the half-normal points and add Lenth's lines at r = 1 only", () => {
    const traces = halfNormalTraces(F);
    expect(traces).toHaveLength(3);
    expect(traces[0]).toMatchObject({ text: ["A:B", "B", "A"], y: [0.1, 1, 3] });
    expect(traces[2]).toMatchObject({ y: [2.1, 2.1] });
    expect(halfNormalTraces({ ...F, replications: 3 })).toHaveLength(2);
  });

  it("give one main-effect line per factor and two lines per interaction", () => {
    expect(mainEffectTraces(F).map((t) => (t as { y: number[] }).y)).toEqual([
      [1.5, 3.5],
      [2, 3],
    ]);
    const [low, high] = interactionTraces(F) as { y: number[] }[];
    expect(low?.y).toEqual([1, 2]);
    expect(high?.y).toEqual([3, 4]);
  });
});
