import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import type { CostPublic, GridPreviewPublic } from "@/api";
import { formatDuration } from "@/lib/format";
import { ExperimentTiming } from "./ExperimentTiming";
import { RuleRange } from "./RuleRange";

const overhead = { seconds: 8, source: "default", runs: 0, testbed_id: null, testbed: "local" };
// A 2^2 design, 38 s per run with its overhead: 2 repetitions at first, at most 6.
const fixed: GridPreviewPublic = {
  configurations: 4,
  runs: 8,
  estimated_seconds: 8 * 38,
  overhead: { ...overhead, source: "default" as const },
};

function cost(amount: number): CostPublic {
  return {
    vms: [],
    hours: 0,
    per_hour: 0.29,
    amount,
    currency: "USD",
    unpriced: [],
    counted: "the testbed's VMs",
  };
}

const ruled: GridPreviewPublic = {
  ...fixed,
  rule_range: {
    minimum: { repetitions: 2, runs: 8, estimated_seconds: 8 * 38, cost: cost(0.0245) },
    maximum: { repetitions: 6, runs: 24, estimated_seconds: 24 * 38, cost: cost(0.0735) },
    together: true,
  },
};

function renderTiming(
  preview: GridPreviewPublic,
  elapsed: Parameters<typeof ExperimentTiming>[0]["elapsed"],
) {
  render(
    <dl>
      <ExperimentTiming preview={preview} elapsed={elapsed} />
    </dl>,
  );
}

describe("ExperimentTiming", () => {
  it("shows the estimate, and no actual time before the end", () => {
    renderTiming(fixed, { started_at: "2026-11-28T12:00:00Z", ended_at: null, seconds: null });
    expect(screen.getByTestId("estimated").textContent).toBe(formatDuration(304));
    expect(screen.queryByTestId("elapsed")).toBeNull();
  });

  it("shows a rule's estimate as its range and, after the end, the actual time", () => {
    renderTiming(ruled, {
      started_at: "2026-11-28T12:00:00Z",
      ended_at: "2026-11-28T12:12:05Z",
      seconds: 725,
    });
    expect(screen.getByTestId("estimated").textContent).toBe("5 min 4 s to 15 min 12 s");
    expect(screen.getByTestId("elapsed").textContent).toBe("12 min 5 s");
  });
});

describe("RuleRange", () => {
  it("states the range in runs, time and money, and that the cells stop together", () => {
    const range = ruled.rule_range;
    if (!range) throw new Error("the fixture has a range");
    render(<RuleRange range={range} />);
    const text = screen.getByTestId("preview-rule-range").textContent ?? "";
    expect(text).toContain("8 to 24 runs, 5 min 4 s to 15 min 12 s, 0.0245 USD to 0.0735 USD");
    expect(text).toContain("every configuration runs 2 to 6 times, all stopping together");
  });
});
