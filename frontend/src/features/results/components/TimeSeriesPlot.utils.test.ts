import { describe, expect, it } from "vitest";
import type { InstanceSeriesPublic, RunSeriesPublic } from "@/api";
import {
  timeSeriesLayout,
  timeSeriesTable,
  timeSeriesTraces,
  windowShapes,
} from "./TimeSeriesPlot.utils";

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

describe("timeSeriesTraces", () => {
  it("draws combined throughput on the top axis and response time on the bottom one", () => {
    const traces = timeSeriesTraces(runSeries());
    expect(traces).toHaveLength(2);
    expect(traces.map((t) => ("yaxis" in t ? t.yaxis : ""))).toEqual(["y", "y2"]);
    expect(traces[1] && "y" in traces[1] ? traces[1].y : []).toEqual([900, 1000, 1100, null]);
  });

  it("adds every instance, hidden until picked, placed at its offset", () => {
    const second = { ...CLIENT_0, source: "client:1", offset_s: 2 };
    const traces = timeSeriesTraces(runSeries({ instances: [CLIENT_0, second] }));
    expect(traces).toHaveLength(6);
    const last = traces[5];
    expect(last && "name" in last ? last.name : "").toBe("client:1 response time");
    expect(last && "x" in last ? last.x : []).toEqual([2, 3, 4, 5]);
    expect(last && "visible" in last ? last.visible : true).toBe("legendonly");
  });
});

describe("windowShapes", () => {
  it("shades the stable window over the whole height and outlines a re-cut one", () => {
    const [stable, cut, ...rest] = windowShapes({ start: 10, end: 70 }, { start: 20, end: 40 });
    expect(rest).toEqual([]);
    expect(stable).toMatchObject({ type: "rect", x0: 10, x1: 70, yref: "paper", y0: 0, y1: 1 });
    expect(cut).toMatchObject({ x0: 20, x1: 40, line: { dash: "dash" } });
    expect(windowShapes({ start: 10, end: 70 })).toHaveLength(1);
  });

  it("is what the layout shades, from the run's stored window", () => {
    const layout = timeSeriesLayout(runSeries());
    expect(layout.shapes).toEqual(windowShapes({ start: 1, end: 3 }));
    expect(layout.yaxis2?.title).toEqual({ text: "response time (µs)" });
  });
});

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
