import { describe, expect, it } from "vitest";
import { fromSloSearch, NEW_SEARCH, toSloSearch } from "./sloForm";

describe("sloForm", () => {
  it("sends the target in us and leaves the empty fields to the server's defaults", () => {
    const spec = toSloSearch({ ...NEW_SEARCH, target_ms: "0.1", start_rate: " 250 " });
    expect(spec).toEqual({ statistic: "percentile", target_us: 100, start_rate: 250 });
  });

  it("sends text that is not a number as typed, so the 422 names the field", () => {
    const spec = toSloSearch({ ...NEW_SEARCH, target_ms: "fast", max_rate: "lots" });
    expect(spec.target_us).toBe("fast");
    expect(spec.max_rate).toBe("lots");
  });

  it("round-trips a stored search", () => {
    const stored = {
      statistic: "mean",
      target_us: 2500,
      percentile: 99,
      confidence: 0.9,
      start_rate: 64,
      max_rate: 4096,
      resolution_pct: 5,
      max_repeats: 3,
      confirm_repeats: 2,
      max_probes: 30,
      min_delivered: 0.95,
    };
    const form = fromSloSearch(stored);
    expect(form.target_ms).toBe("2.5");
    expect(form.statistic).toBe("mean");
    expect(toSloSearch(form)).toEqual(stored);
  });
});
