import { render, screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import type { EffectPublic, FactorialPublic } from "@/api";
import { FactorialEffectsTable } from "./FactorialEffectsTable";

function effect(name: string, factors: string[], label: string, value: number): EffectPublic {
  return {
    name,
    factors,
    label,
    value,
    sum_of_squares: 0,
    variation_percent: 10,
    ci_low: null,
    ci_high: null,
    significant: null,
  };
}

// As the API answers a design entered as servers {1, 3}, replication {one, all}.
const factorial = {
  factors: ["servers", "replication"],
  levels: { servers: [1, 3], replication: ["one", "all"] },
  confidence: 0.9,
  effects: [
    effect("I", [], "Mean", 22_000),
    effect("servers", ["servers"], "Memcached servers 1 → 3", -2083),
    effect("replication", ["replication"], "Replication (servers) one → all", -650),
    effect(
      "servers:replication",
      ["servers", "replication"],
      "Memcached servers 1 → 3 × Replication (servers) one → all",
      -12,
    ),
  ],
  no_effect: [
    {
      factor: "replication",
      configurations: [0, 2],
      where: "where servers = 1",
      reason: "with 1 server every set is written to that one server",
      text: "replication one → all has no effect by construction where servers = 1: with 1 server every set is written to that one server.",
    },
  ],
} as unknown as FactorialPublic;

describe("FactorialEffectsTable", () => {
  it("names each effect with its levels, from the first entered to the second", () => {
    render(<FactorialEffectsTable factorial={factorial} />);
    const rows = within(screen.getByTestId("factorial-effects")).getAllByRole("row").slice(1);
    const names = rows.map((r) => r.querySelector("td")?.textContent?.replace(" *", ""));
    expect(names).toEqual([
      "Mean",
      "Memcached servers 1 → 3",
      "Replication (servers) one → all",
      "Memcached servers 1 → 3 × Replication (servers) one → all",
    ]);
    expect(rows[1]?.textContent).toContain("-2,083");
  });

  it("marks the effects of a factor without effect by construction and says where", () => {
    render(<FactorialEffectsTable factorial={factorial} />);
    const rows = within(screen.getByTestId("factorial-effects")).getAllByRole("row").slice(1);
    const marked = rows.map((r) => r.querySelector("td")?.textContent?.endsWith("*"));
    expect(marked).toEqual([false, false, true, true]);
    expect(screen.getByTestId("factorial-no-effect").textContent).toContain(
      "replication one → all has no effect by construction where servers = 1",
    );
  });

  it("says nothing when every factor can act everywhere", () => {
    render(<FactorialEffectsTable factorial={{ ...factorial, no_effect: [] }} />);
    expect(screen.queryByTestId("factorial-no-effect")).toBeNull();
  });
});
