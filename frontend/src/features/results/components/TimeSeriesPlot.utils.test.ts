import { describe, expect, it } from "vitest";
import type { InstanceSeriesPublic, RunSeriesPublic } from "@/api";
import { timeSeriesTable } from "./TimeSeriesPlot.utils";

const CLIENT_0: InstanceSeriesPublic = {
  source: "client:0",
  offset_s: 0,
  throughput: [100, 400, 410, 50],
  response_time_us: [900, 1000, 1100, null],
  queue_time_us: null,
  server_time_us: null,
  queue_length: null,
};

function runSeries(overrides: Partial<RunSeriesPublic> = {}): RunSeriesPublic {
  return {
    run_id: 7,
    experiment_id: 1,
    configuration_id: 3,
    repetition: 1,
    source: "client",
    request_type: "all",
    start_unix: 1.7e9,
    window_start_s: 1,
    window_end_s: 3,
    window_stored: true,
    units: { time_s: "s", throughput: "ops/s", response_time_us: "us" },
    combined: {
      time_s: [0, 1, 2, 3],
      throughput: [100, 400, 410, 50],
      response_time_us: [900, 1000, 1100, null],
    },
    instances: [CLIENT_0],
    ...overrides,
  };
}

describe("timeSeriesTable", () => {
  it("lists each second with units and whether it is inside the window [start, end)", () => {
    const table = timeSeriesTable(runSeries());
    expect(table.header).toEqual([
      "time (s)",
      "throughput (ops/s)",
      "response time (µs)",
      "in stable window",
    ]);
    expect(table.rows.map((r) => r[3])).toEqual(["no", "yes", "yes", "no"]);
    expect(table.rows[3]).toEqual([3, 50, null, "no"]);
  });
});
