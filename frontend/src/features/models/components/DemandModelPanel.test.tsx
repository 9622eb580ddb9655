import { render, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { DemandGroupPublic } from "@/api";
import { createWrapper, mockApi } from "@/test/api";
import { ABOVE_BOUND, OFF_MODEL } from "@/test/fits";
import { SERVED_METRICS } from "@/test/served";
import { DemandModelPanel } from "./DemandModelPanel";

const ABOVE = ABOVE_BOUND;
const OFF = OFF_MODEL;

const GROUP: DemandGroupPublic = {
  group: { workers: 8 },
  configuration_ids: [1],
  timer_tolerance: 0.5,
  model: {
    stations: [
      {
        name: "CPU of local",
        servers: 2,
        demand_s: 68e-6,
        demand_by_point_s: [68e-6],
        utilization_by_point: [0.72],
      },
    ],
    processes: [],
    think_time_s: 0,
    points: [
      {
        clients: 1,
        measured_throughput_per_s: 21310,
        model_throughput_per_s: 14622,
        bound_throughput_per_s: 14622,
        throughput_error_pct: -31.4,
        measured_response_time_s: 50e-6,
        model_response_time_s: 68e-6,
        response_time_error_pct: 36,
        bound_response_time_s: 40e-6,
        throughput_fit: ABOVE,
        response_time_fit: OFF,
      },
    ],
    bottleneck: null,
    warnings: [`${ABOVE.message}: the demands pooled over the points are larger`],
    timer_demand_s: null,
    cpu_demand_s: null,
    network_delay_s: null,
  },
};

afterEach(() => vi.unstubAllGlobals());

describe("DemandModelPanel", () => {
  it("warns beside a measurement that does not fit, and says each flag once", () => {
    mockApi(() => [200, SERVED_METRICS]);
    render(<DemandModelPanel group={GROUP} />, { wrapper: createWrapper().wrapper });
    const [, row] = within(screen.getByTestId("demand-fit")).getAllByRole("row");
    if (!row) throw new Error("no measured point row");
    const badges = within(row).getAllByTestId("fit-warning");
    expect(badges.map((b) => b.textContent)).toEqual([
      "⚠ 46 % above the bound",
      "⚠ 36 % off the model",
    ]);
    // The measured X cell holds the number and its warning.
    expect(badges[0]?.parentElement?.textContent).toBe("21,310⚠ 46 % above the bound");
    // The above-bound message is a warning already; only the response time's is added.
    expect(screen.getByTestId("demand-warnings").textContent).toContain("45.7 % above");
    expect(screen.getByTestId("fit-messages").textContent).toBe(OFF.message);
  });
});
