import { describe, expect, it } from "vitest";
import { capitalize, groupTraces, levelTicks } from "./GroupedCurves.utils";

describe("grouped curve traces", () => {
  it("draws the server's band as a closed polygon under a mean line of the same colour", () => {
    const traces = groupTraces([
      {
        key: "8",
        label: "workers=8",
        runs: 6,
        configurations: 2,
        points: [
          { x: 1, n: 3, mean: 10, low: 9, high: 11 },
          { x: 4, n: 3, mean: 20, low: 18, high: 22 },
        ],
      },
      {
        key: "16",
        label: "workers=16",
        runs: 1,
        configurations: 1,
        points: [{ x: 1, n: 1, mean: 5, low: null, high: null }],
      },
    ]) as Record<string, unknown>[];
    const colour = (i: number) => (traces[i]?.line as { color?: string } | undefined)?.color;
    expect(traces.map((t) => t.name)).toEqual([
      "workers=8 band",
      "workers=8 (6 runs)",
      "workers=16 (1 runs)",
    ]);
    expect(traces[0]).toMatchObject({
      fill: "toself",
      x: [1, 4, 4, 1],
      y: [11, 22, 18, 9],
      showlegend: false,
    });
    expect(colour(0)).toBe(colour(1));
    expect(colour(2)).not.toBe(colour(1));
  });

  it("ticks a numeric x at its measured levels only, and only when there are few", () => {
    const group = (xs: unknown[]) => ({
      key: "k",
      label: "k",
      runs: 1,
      configurations: 1,
      points: xs.map((x) => ({ x, n: 1, mean: 1, low: null, high: null })),
    });
    expect(levelTicks([group([8, 4]), group([4, 16])])).toEqual([4, 8, 16]);
    expect(levelTicks([group(["1:9", "0:1"])])).toBeUndefined();
    expect(levelTicks([group(Array.from({ length: 20 }, (_, i) => i))])).toBeUndefined();
    expect(capitalize("throughput")).toBe("Throughput");
  });
});
