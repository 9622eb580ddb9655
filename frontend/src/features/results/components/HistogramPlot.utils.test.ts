import { describe, expect, it } from "vitest";
import type { HistogramPublic } from "@/api";
import { boundPrefix, buckets, histogramTable, percentileLabel } from "./HistogramPlot.utils";

const HIST: HistogramPublic = {
  units: { upper_bounds_us: "us", value_us: "us" },
  upper_bounds_us: [100, 200, 400],
  counts: [10, 30, 20],
  overflow: 5,
  total: 65,
  percentiles: [
    { q: 50, value_us: 175, in_overflow: false },
    { q: 99.9, value_us: 400, in_overflow: true },
  ],
};

describe("buckets", () => {
  it("reads bucket bounds, the first from 0", () => {
    expect(buckets(HIST)).toEqual([
      { lowerUs: 0, upperUs: 100, count: 10 },
      { lowerUs: 100, upperUs: 200, count: 30 },
      { lowerUs: 200, upperUs: 400, count: 20 },
    ]);
  });
});

describe("percentileLabel", () => {
  it("names percentiles as reports do", () => {
    expect(percentileLabel(99.99)).toBe("p99.99");
    expect(percentileLabel(50)).toBe("p50");
  });
});

describe("histogramTable", () => {
  it("lists bucket bounds with units and the overflow as an open last bucket", () => {
    const table = histogramTable(HIST);
    expect(table.header).toEqual(["lower bound (us)", "upper bound (us)", "count"]);
    expect(table.rows).toEqual([
      [0, 100, 10],
      [100, 200, 30],
      [200, 400, 20],
      [400, null, 5],
    ]);
  });
});

describe("boundPrefix", () => {
  it("shows what the histogram cannot resolve as a bound", () => {
    expect(boundPrefix({ q: 50, value_us: 100, in_overflow: false, bound: "below" })).toBe("< ");
    expect(boundPrefix({ q: 99, value_us: 400, in_overflow: true, bound: "above" })).toBe("≥ ");
    expect(boundPrefix({ q: 90, value_us: 150, in_overflow: false })).toBe("");
  });
});
