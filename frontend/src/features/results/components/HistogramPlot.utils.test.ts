import { describe, expect, it } from "vitest";
import type { HistogramPublic } from "@/api";
import {
  boundPrefix,
  buckets,
  histogramRange,
  histogramTable,
  histogramTraces,
  labelRows,
  percentileLabel,
  percentileMarkers,
  requestsBeyond,
} from "./HistogramPlot.utils";

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

describe("histogram bars", () => {
  it("puts one bar per bucket at its centre, as wide as the bucket", () => {
    expect(buckets(HIST)).toEqual([
      { lowerUs: 0, upperUs: 100, count: 10 },
      { lowerUs: 100, upperUs: 200, count: 30 },
      { lowerUs: 200, upperUs: 400, count: 20 },
    ]);
    const [bars] = histogramTraces(HIST);
    expect(bars).toMatchObject({ type: "bar", x: [50, 150, 300], y: [10, 30, 20] });
    expect(bars && "width" in bars ? bars.width : []).toEqual([100, 100, 200]);
  });
});

describe("percentileMarkers", () => {
  it("draws a vertical line per percentile and marks an overflow value as a lower bound", () => {
    const { shapes, annotations } = percentileMarkers(HIST.percentiles);
    expect(shapes.map((s) => [s.x0, s.x1, s.yref])).toEqual([
      [175, 175, "paper"],
      [400, 400, "paper"],
    ]);
    expect(annotations.map((a) => a.text)).toEqual(["p50", "≥p99.9"]);
    expect(percentileLabel(99.99)).toBe("p99.99");
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

describe("histogramRange", () => {
  it("spans the non-empty buckets and the percentiles, padded, never below zero", () => {
    const sparse: HistogramPublic = {
      ...HIST,
      upper_bounds_us: [100, 200, 300, 400, 500],
      counts: [0, 0, 4, 6, 0],
      percentiles: [{ q: 50, value_us: 350, in_overflow: false }],
    };
    expect(histogramRange(sparse)).toEqual([190, 410]);
    expect(histogramRange({ ...HIST, percentiles: [] })?.[0]).toBe(0);
    expect(histogramRange({ ...sparse, counts: [0, 0, 0, 0, 0] })).toBeUndefined();
  });
});

describe("zoom and labels", () => {
  it("zooms to where the requests are, leaving a sparse slow tail to the right", () => {
    const upper = Array.from({ length: 1000 }, (_, i) => (i + 1) * 100);
    const counts: number[] = upper.map((u) => (u <= 2300 ? 1000 : 0));
    counts[900] = 1; // one request near 90 ms
    const h: HistogramPublic = {
      ...HIST,
      upper_bounds_us: upper,
      counts,
      overflow: 0,
      percentiles: [{ q: 99, value_us: 2290, in_overflow: false }],
    };
    const range = histogramRange(h);
    expect(range?.[1]).toBeLessThan(2500);
    expect(requestsBeyond(h, range ?? [0, 0])).toBe(1);
  });

  it("puts labels closer than the gap on separate rows and merges equal values", () => {
    expect(labelRows([100, 105, 300, 302, 304], 10)).toEqual([0, 1, 0, 1, 2]);
    const { annotations } = percentileMarkers(
      [
        { q: 90, value_us: 400, in_overflow: false },
        { q: 99, value_us: 400, in_overflow: false },
        { q: 50, value_us: 395, in_overflow: false },
      ],
      [0, 1000],
    );
    expect(annotations.map((a) => a.text)).toEqual(["p90/p99", "p50"]);
    expect(new Set(annotations.map((a) => a.y)).size).toBe(2);
  });
});

describe("boundPrefix", () => {
  it("shows what the histogram cannot resolve as a bound", () => {
    expect(boundPrefix({ q: 50, value_us: 100, in_overflow: false, bound: "below" })).toBe("< ");
    expect(boundPrefix({ q: 99, value_us: 400, in_overflow: true, bound: "above" })).toBe("≥ ");
    expect(boundPrefix({ q: 90, value_us: 150, in_overflow: false })).toBe("");
  });
});
