import { describe, expect, it } from "vitest";
import type { ConfigurationResultPublic } from "@/api";
import { axisTitle, factorNames, levelsOf } from "./series";

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
    metrics: {
      throughput_per_s: { n: tp === null ? 0 : 3, mean: tp, std: tpStd },
      response_time_us: { n: rt === null ? 0 : 3, mean: rt, std: rt === null ? null : rt / 10 },
      keys_per_s: { n: 0, mean: null, std: null },
    },
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
