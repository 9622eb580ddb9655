import { describe, expect, it } from "vitest";
import { describeRule } from "./repetitionRule";

describe("describeRule", () => {
  it("states the target, the level and the bounds", () => {
    const rule = {
      metric: "throughput_per_s" as const,
      source: "client" as const,
      half_width_pct: 5,
      confidence: 0.95,
      min_repetitions: 3,
      max_repetitions: 10,
    };
    expect(describeRule(rule, (m) => (m === "throughput_per_s" ? "throughput" : m))).toBe(
      "until the 95 % interval of the mean throughput (client) is within ±5 % of the mean " +
        "(3 to 10 repetitions)",
    );
  });
});
