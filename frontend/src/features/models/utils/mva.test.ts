import { describe, expect, it } from "vitest";
import type { MvaPublic } from "@/api";
import { figureRequest } from "@/lib/serverFigure";
import { DEFAULT_STATIONS, stationsAtMax, toMvaRequest } from "./mva";

describe("toMvaRequest", () => {
  it("converts µs to seconds and forces one server on non-multi stations", () => {
    const req = toMvaRequest(
      [
        { name: "net", kind: "queue", service_us: 500, visits: 1, servers: 8 },
        { name: "pool", kind: "multi", service_us: 2000, visits: 0.5, servers: 64 },
      ],
      24,
      1500,
    );
    expect(req).toEqual({
      stations: [
        { name: "net", kind: "queue", service_time_s: 0.0005, visits: 1, servers: 1 },
        { name: "pool", kind: "multi", service_time_s: 0.002, visits: 0.5, servers: 64 },
      ],
      population: 24,
      think_time_s: 0.0015,
      include_bounds: true,
    });
  });

  it("defaults to the published one-middleware model (memcached at 2,940 gets/s)", () => {
    const memcached = toMvaRequest(DEFAULT_STATIONS, 24, 0).stations.find(
      (s) => s.name === "memcached",
    );
    expect(1 / (memcached?.service_time_s ?? 0)).toBeCloseTo(2940, 6);
  });
});

describe("stationsAtMax", () => {
  it("reads every station at the largest population", () => {
    const station = {
      name: "memcached",
      kind: "queue" as const,
      servers: 1,
      visits: 1,
      service_time_s: 0.00034,
      demand_s: 0.00034,
      throughput_per_s: [100, 2940],
      utilization_per_server: [0.03, 1],
      prob_busy: null,
      residence_time_s: [0.00034, 0.00635],
      queue_length: [0.03, 18.68],
    };
    const result = { populations: [1, 24], stations: [station] } as unknown as MvaPublic;
    expect(stationsAtMax(result)).toEqual([
      {
        name: "memcached",
        throughput: 2940,
        utilization: 1,
        probBusy: null,
        residenceUs: 6350,
        queueLength: 18.68,
      },
    ]);
  });
});

describe("figureRequest of the calculator", () => {
  it("posts a calculator's network to the analysis figures with the asked width", () => {
    const body = toMvaRequest(DEFAULT_STATIONS, 24, 50);
    const { url, init } = figureRequest({ calculator: "mva-calculator", body }, "png", {
      width: "column",
    });
    expect(url).toBe("/api/v1/analysis/figures/mva-calculator.png");
    expect(init.method).toBe("POST");
    // The body the solve endpoint took (times in s), plus the file's width.
    const posted = JSON.parse(String(init.body));
    expect(posted).toEqual({ ...body, width: "column" });
    expect(posted.think_time_s).toBeCloseTo(50e-6, 15);
    expect(posted.stations[3].service_time_s).toBeCloseTo(1 / 2940, 15);
    expect(posted.include_bounds).toBe(true);
  });
});
