import { describe, expect, it } from "vitest";
import type { NetworkGroupPublic, SystemConfigIn } from "@/api";
import { applyEdits, hasEdits, networkRequest, whatIfParams } from "./fit";

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
  delay_us: null,
  net_us: null,
  worker_us: null,
  server_us: null,
  think_us: null,
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
  it("apply in display units (µs back to s) and leave unset inputs as estimated", () => {
    const edited = applyEdits(SYSTEM, { ...NONE, workers: 32, worker_us: 2000 });
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

describe("whatIfParams", () => {
  it("names only the edited inputs, in the server's fields and units", () => {
    expect(whatIfParams(SYSTEM, NONE)).toEqual([]);
    expect(whatIfParams(SYSTEM, { ...NONE, workers: 8 })).toEqual([]);
    expect(whatIfParams(SYSTEM, { ...NONE, workers: 1, worker_us: 2000 })).toEqual([
      "workers=1",
      "worker_service_s=0.002",
    ]);
  });
});
