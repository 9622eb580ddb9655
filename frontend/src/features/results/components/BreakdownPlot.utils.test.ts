import { describe, expect, it } from "vitest";
import type { BreakdownRowPublic } from "@/api";
import { breakdownTraces, configLabel } from "./BreakdownPlot.utils";

describe("breakdownTraces", () => {
  it("stacks queue, server, processing and network in ms, one bar per configuration", () => {
    const row: BreakdownRowPublic = {
      configuration_id: 1,
      index: 0,
      values: { workers: 16, sharded: true },
      client_response_us: 7400,
      middleware_response_us: 7000,
      queue_us: 3500,
      server_us: 3400,
      processing_us: 100,
      network_us: 400,
    };
    const traces = breakdownTraces([row]);
    expect(traces.map((t) => ("name" in t ? t.name : ""))).toEqual([
      "queue",
      "server",
      "processing",
      "network",
    ]);
    expect(traces.map((t) => ("y" in t ? t.y : []))).toEqual([[3.5], [3.4], [0.1], [0.4]]);
    expect(configLabel(row.values)).toBe("workers=16, sharded=true");
    expect(configLabel({})).toBe("all");
  });
});
