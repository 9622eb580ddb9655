import { describe, expect, it } from "vitest";
import { formatEstimate, ms, rate } from "./format";

describe("SLO formatting", () => {
  it("writes latencies in ms with their interval", () => {
    expect(ms(1840)).toBe("1.84 ms");
    expect(formatEstimate({ value_us: 1840, low_us: 1790, high_us: 1900, n: 1000 })).toBe(
      "1.84 ms [1.79, 1.90]",
    );
  });
  it("shows an unbounded upper end and a missing estimate", () => {
    expect(formatEstimate({ value_us: 25000, low_us: 20000, high_us: null, n: 10 })).toBe(
      "25.0 ms [20.00, ∞]",
    );
    expect(formatEstimate(null)).toBe("—");
    expect(rate(6400.4)).toBe("6,400/s");
  });
});
