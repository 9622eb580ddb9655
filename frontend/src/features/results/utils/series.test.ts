import { describe, expect, it } from "vitest";
import type { ConfigurationResultPublic } from "@/api";
import { axisTitle, factorNames, levelsOf, shapeSeries } from "./series";

function row(
  index: number,
  values: Record<string, unknown>,
  tp: number | null,
  tpStd: number | null = 1,
  rt: number | null = 100,
): ConfigurationResultPublic {
  return {
    configuration_id: 100 + index,
    index,
    values,
    repetitions: 3,
    throughput_mean: tp,
    throughput_std: tpStd,
    response_time_us_mean: rt,
    response_time_us_std: rt === null ? null : rt / 10,
    keys_per_s_mean: null,
  };
}

// Deliberately out of order: workers 16 before 8, clients 32 before 4.
const rows = [
  row(0, { workers: 16, clients: 32, sharded: true }, 900),
  row(1, { workers: 8, clients: 32, sharded: true }, 700),
  row(2, { workers: 8, clients: 4, sharded: true }, 300),
  row(3, { workers: 16, clients: 4, sharded: true }, 310),
  row(4, { workers: 8, clients: 4, sharded: false }, 250),
  row(5, { workers: 8, clients: 32, sharded: false }, null),
];

describe("shapeSeries", () => {
  it("makes one line per level of the line factor, x sorted numerically, std as error", () => {
    const series = shapeSeries(rows, {
      x: "clients",
      metric: "throughput",
      filters: { sharded: "true" },
    });
    expect(series.map((s) => s.name)).toEqual(["workers=8", "workers=16"]);
    expect(series[0]).toEqual({ name: "workers=8", x: [4, 32], y: [300, 700], err: [1, 1] });
    expect(series[1]?.y).toEqual([310, 900]);
  });

  it("skips configurations without measurements and keeps other filters' rows out", () => {
    const series = shapeSeries(rows, {
      x: "clients",
      metric: "throughput",
      filters: { sharded: "false" },
    });
    expect(series).toEqual([{ name: "workers=8", x: [4], y: [250], err: [1] }]);
  });

  it("groups by every unpinned factor and prefixes names in comparisons", () => {
    const series = shapeSeries(rows, { x: "workers", metric: "response_time", prefix: "exp A" });
    expect(series.map((s) => s.name)).toEqual([
      "exp A · clients=4, sharded=false",
      "exp A · clients=4, sharded=true",
      "exp A · clients=32, sharded=false",
      "exp A · clients=32, sharded=true",
    ]);
    expect(series[1]).toEqual({
      name: "exp A · clients=4, sharded=true",
      x: [8, 16],
      y: [100, 100],
      err: [10, 10],
    });
  });

  it("uses 0 for a missing std and text for non-numeric levels", () => {
    const r = [row(0, { ratio: "1:9" }, 10, null), row(1, { ratio: "1:0" }, 20, null)];
    expect(shapeSeries(r, { x: "ratio", metric: "throughput" })).toEqual([
      { name: "all", x: ["1:0", "1:9"], y: [20, 10], err: [0, 0] },
    ]);
  });
});

describe("levels and names", () => {
  it("lists factors and their distinct sorted levels", () => {
    expect(factorNames(rows)).toEqual(["workers", "clients", "sharded"]);
    expect(levelsOf(rows, "workers")).toEqual([8, 16]);
    expect(levelsOf(rows, "sharded")).toEqual([false, true]);
  });

  it("puts the unit in the axis title", () => {
    expect(axisTitle("throughput", "ops/s")).toBe("throughput (ops/s)");
    expect(axisTitle("ratio", null)).toBe("ratio");
  });
});
