import { describe, expect, it } from "vitest";
import type { NetworkGroupPublic, QueueModelRowPublic, SystemConfigIn } from "@/api";
import { applyEdits, fitTraces, hasEdits, networkRequest, queueTraces } from "./fit";

const SYSTEM: SystemConfigIn = {
  servers: 3,
  middlewares: 2,
  workers: 8,
  network_delay_s: 0.0003,
  net_thread_service_s: 0.0001,
  worker_service_s: 0.001,
  server_service_s: 0.0005,
  write_fraction: 1,
  replication: 3,
  think_time_s: 0,
};

const NONE = {
  workers: null,
  middlewares: null,
  servers: null,
  delay_ms: null,
  net_ms: null,
  worker_ms: null,
  server_ms: null,
  think_ms: null,
};

const GROUP: NetworkGroupPublic = {
  group: { workers: 8 },
  system: SYSTEM,
  estimates: [],
  utilization: [],
  points: [
    {
      configuration_id: 1,
      clients: 6,
      throughput_per_s: 2400,
      throughput_std_per_s: 24,
      response_time_s: 0.0025,
      response_time_std_s: 0.0001,
    },
    {
      configuration_id: 2,
      clients: 24,
      throughput_per_s: 3300,
      throughput_std_per_s: null,
      response_time_s: null,
      response_time_std_s: null,
    },
  ],
};

describe("what-if edits", () => {
  it("apply in display units (ms back to s) and leave unset inputs as estimated", () => {
    const edited = applyEdits(SYSTEM, { ...NONE, workers: 32, worker_ms: 2 });
    expect(edited.workers).toBe(32);
    expect(edited.worker_service_s).toBeCloseTo(0.002, 12);
    expect(edited.server_service_s).toBe(SYSTEM.server_service_s);
    expect(hasEdits(SYSTEM, NONE)).toBe(false);
    expect(hasEdits(SYSTEM, { ...NONE, workers: 8 })).toBe(false);
    expect(hasEdits(SYSTEM, { ...NONE, servers: 5 })).toBe(true);
  });

  it("build a solve request over the measured client counts, with bounds", () => {
    const body = networkRequest(SYSTEM, GROUP.points);
    expect(body.clients).toEqual([6, 24]);
    expect(body.measured_response_time_s).toEqual([0.0025, null]);
    expect(body.include_bounds).toBe(true);
  });
});

describe("traces", () => {
  it("draw measured points with std error bars in ms, and no model before it is solved", () => {
    const [measured, ...rest] = fitTraces(GROUP, undefined, undefined, "response");
    expect(rest).toEqual([]);
    expect(measured).toMatchObject({ x: [6, 24], mode: "markers" });
    const m = measured as { y: number[]; error_y: { array: number[] } };
    expect(m.y[0]).toBeCloseTo(2.5, 12);
    expect(Number.isNaN(m.y[1])).toBe(true);
    expect(m.error_y.array[0]).toBeCloseTo(0.1, 12);
  });

  it("put M/M/1, M/M/m and the measurement of one quantity against N, in order of N", () => {
    const compared = (p: number, m: number) => ({ predicted: p, measured: m, error_percent: 0 });
    const row = (id: number, clients: number, r: number): QueueModelRowPublic => ({
      configuration_id: id,
      index: id,
      values: {},
      clients,
      arrival_rate_per_s: 1000,
      arrival_source: "",
      service_time_s: 0.001,
      service_source: "",
      note: null,
      mm1: null,
      mmm: {
        model: "M/M/m",
        servers: 16,
        service_rate_per_s: 1000,
        utilization: 0.5,
        stable: true,
        queue_length: compared(1, 2),
        waiting_time_s: compared(0.001, 0.002),
        response_time_s: compared(r, 0.003),
      },
    });
    const [measured, one, many] = queueTraces(
      [row(2, 48, 0.004), row(1, 6, 0.002)],
      "response_time_s",
    );
    expect(measured).toMatchObject({ x: [6, 48], y: [3, 3] });
    expect((one as { y: number[] }).y.every(Number.isNaN)).toBe(true);
    expect((many as { y: number[] }).y).toEqual([2, 4]);
  });
});
