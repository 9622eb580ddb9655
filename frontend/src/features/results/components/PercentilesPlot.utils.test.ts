import { describe, expect, it } from "vitest";
import type { ConfigPercentilesPublic } from "@/api";
import { percentileSeries, percentilesTable } from "./PercentilesPlot.utils";

function row(
  id: number,
  values: Record<string, unknown>,
  p: [number, number][],
): ConfigPercentilesPublic {
  return {
    configuration_id: id,
    index: id,
    values,
    total: p.length ? 100 : 0,
    percentiles: p.map(([q, value_us]) => ({ q, value_us, in_overflow: false })),
  };
}

const ROWS = [
  row(1, { clients: 16, workers: 8 }, [
    [50, 900],
    [99, 3000],
  ]),
  row(2, { clients: 4, workers: 8 }, [
    [50, 300],
    [99, 800],
  ]),
  row(3, { clients: 4, workers: 32 }, [
    [50, 250],
    [99, 700],
  ]),
  row(4, { clients: 32, workers: 8 }, []),
];

describe("percentileSeries", () => {
  it("gives one line per percentile over the pinned configurations, sorted by x", () => {
    const series = percentileSeries(ROWS, [50, 99], "clients", { workers: "8" });
    expect(series.map((s) => s.name)).toEqual(["p50", "p99"]);
    // clients 32 has no histogram: left out, not plotted as zero.
    expect(series[0]?.x).toEqual([4, 16]);
    expect(series[0]?.y).toEqual([300, 900]);
    expect(series[1]?.y).toEqual([800, 3000]);
  });

  it("keeps a line empty when no configuration has that percentile", () => {
    const series = percentileSeries(ROWS, [90], "clients", { workers: "32" });
    expect(series).toEqual([{ name: "p90", x: [], y: [], err: [], bounds: [] }]);
  });
});

describe("bounds", () => {
  it("carries a percentile the data cannot resolve as a bound, shown as text in the table", () => {
    const rows: ConfigPercentilesPublic[] = [
      {
        ...row(1, { clients: 4 }, []),
        total: 100,
        percentiles: [
          { q: 50, value_us: 100, in_overflow: false, bound: "below" },
          { q: 99, value_us: 50000, in_overflow: true, bound: "above" },
        ],
      },
      row(2, { clients: 8 }, [
        [50, 250],
        [99, 700],
      ]),
    ];
    const series = percentileSeries(rows, [50, 99], "clients", {});
    expect(series[0]?.bounds).toEqual(["< ", ""]);
    expect(series[1]?.bounds).toEqual(["≥ ", ""]);
    expect(percentilesTable(series, "clients", "µs").rows).toEqual([
      [4, "< 100", "≥ 50000"],
      [8, 250, 700],
    ]);
  });
});

describe("percentilesTable", () => {
  it("has the x level and one column per percentile, with units", () => {
    const series = percentileSeries(ROWS, [50, 99], "clients", { workers: "8" });
    expect(percentilesTable(series, "clients", "us")).toEqual({
      header: ["clients", "p50 (us)", "p99 (us)"],
      rows: [
        [4, 300, 800],
        [16, 900, 3000],
      ],
    });
  });
});
