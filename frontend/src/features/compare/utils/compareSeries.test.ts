import { describe, expect, it } from "vitest";
import type { ConfigurationResultPublic, ResultsPublic } from "@/api";
import { commonFactors, compareSeries } from "./compareSeries";

function results(rows: [Record<string, unknown>, number][]): ResultsPublic {
  const data: ConfigurationResultPublic[] = rows.map(([values, tp], i) => ({
    configuration_id: i,
    index: i,
    values,
    repetitions: 3,
    throughput_mean: tp,
    throughput_std: 0,
    response_time_us_mean: 1,
    response_time_us_std: 0,
    keys_per_s_mean: null,
  }));
  return { source: "client", request_type: "all", units: {}, data };
}

const a = results([
  [{ workers: 8, clients: 1 }, 10],
  [{ workers: 8, clients: 2 }, 20],
]);
const b = results([
  [{ clients: 2, servers: 3 }, 5],
  [{ clients: 1, servers: 3 }, 4],
]);

describe("compare", () => {
  it("offers only factors every experiment varies", () => {
    expect(commonFactors([a, b])).toEqual(["clients"]);
    expect(commonFactors([])).toEqual([]);
  });

  it("overlays every experiment's series under its own name", () => {
    const series = compareSeries(
      [
        { name: "A", results: a },
        { name: "B", results: b },
      ],
      "clients",
      "throughput",
    );
    expect(series).toEqual([
      { name: "A · workers=8", x: [1, 2], y: [10, 20], err: [0, 0] },
      { name: "B · servers=3", x: [1, 2], y: [4, 5], err: [0, 0] },
    ]);
  });
});
