import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import type { SloRatePublic, SloSearchPublic } from "@/api";
import { SloFindings } from "./SloFindings";

function at(rate: number, p99: number, verdict: SloRatePublic["verdict"]): SloRatePublic {
  return {
    rate_per_connection: rate,
    client: { value_us: p99, low_us: 0.9 * p99, high_us: 1.1 * p99, n: 10_000 },
    verdict,
  };
}

const PATTERN: SloSearchPublic["sending_pattern"] = {
  rate_per_connection: 60,
  per_tick: 2,
  tick_ms: 33.333,
  burst: 2,
  description: "At 60 requests/s per connection memtier sends 2 requests back to back.",
  advice: "Or measure closed loop.",
};

function search(nonMonotonic: SloSearchPublic["non_monotonic"]): SloSearchPublic {
  return {
    objective: "p99 ≤ 2 ms",
    confidence: 0.95,
    connections: 1,
    state: "searching",
    reason: "bracketing up",
    probes: [],
    answer_rate_per_connection: null,
    answer_offered_per_s: null,
    answer_delivered_per_s: null,
    answer_client: null,
    answer_middleware: null,
    runs: 3,
    non_monotonic: nonMonotonic,
    sending_pattern: PATTERN,
  };
}

describe("SloFindings", () => {
  it("warns of latency falling with load and lists every rate's percentile", () => {
    const lower = at(60, 40_000, "misses");
    const higher = at(240, 1000, "meets");
    render(
      <SloFindings
        search={search({
          summary: "Latency is not monotonic in offered load.",
          lower,
          higher,
          evidence: [lower, at(120, 2400, "misses"), higher],
        })}
      />,
    );
    const warning = screen.getByTestId("slo-non-monotonic");
    expect(warning.textContent).toContain("Latency is not monotonic in offered load.");
    const rows = screen.getByTestId("slo-evidence").querySelectorAll("tbody tr");
    expect([...rows].map((r) => r.getAttribute("data-rate"))).toEqual(["60", "120", "240"]);
    expect(rows[0]?.textContent).toContain("40.0 ms [36.00, 44.00]");
    expect(rows[0]?.className).toBe("chosen");
    expect(rows[1]?.className).toBe("");
    expect(screen.getByTestId("slo-sending-pattern").textContent).toContain(
      "2 requests back to back. Or measure closed loop.",
    );
  });

  it("says nothing of monotony when latency never fell beyond noise", () => {
    render(<SloFindings search={search(null)} />);
    expect(screen.queryByTestId("slo-non-monotonic")).toBeNull();
    expect(screen.getByTestId("slo-sending-pattern")).toBeTruthy();
  });
});
