import type { Data } from "plotly.js";
import { describe, expect, it } from "vitest";
import { normalizeRange, readBrush, withBrush } from "./ParallelCoordinates.utils";

const KEYS = ["experiment", "workers", "throughput_per_s"];
const FIGURE = [
  {
    type: "parcoords",
    dimensions: [
      { label: "Experiment", values: [0, 1] },
      { label: "Worker threads", values: [8, 16], constraintrange: [1, 2] },
      { label: "Throughput (ops/s)", values: [100, 200] },
    ],
  },
] as unknown as Data[];

describe("parallel coordinates brushing", () => {
  it("reads Plotly's constraint ranges in both shapes", () => {
    expect(normalizeRange([1, 2])).toEqual([[1, 2]]);
    expect(
      normalizeRange([
        [1, 2],
        [4, 5],
      ]),
    ).toEqual([
      [1, 2],
      [4, 5],
    ]);
    expect(normalizeRange(undefined)).toEqual([]);
    // A dragged end keeps 6 significant digits (it goes into the URL and to the server).
    expect(normalizeRange([19.800000000000004, 12345.678912])).toEqual([[19.8, 12345.7]]);
  });

  it("keys the dragged ranges by the server's axis keys", () => {
    const dims = [
      {},
      { constraintrange: [12, 20] },
      {
        constraintrange: [
          [0, 10],
          [150, 400],
        ],
      },
    ];
    expect(readBrush(dims, KEYS)).toEqual({
      workers: [[12, 20]],
      throughput_per_s: [
        [0, 10],
        [150, 400],
      ],
    });
  });

  it("cuts a drag past an axis' end to the axis' range", () => {
    const dims = [{}, { range: [1, 40], constraintrange: [20.1251, 42.4965] }];
    expect(readBrush(dims, KEYS)).toEqual({ workers: [[20.1251, 40]] });
    const beyond = [{}, { range: [1, 40], constraintrange: [[41, 42]] }];
    expect(readBrush(beyond, KEYS)).toEqual({});
  });

  it("puts the page's brush back into the figure, dropping stale ranges", () => {
    const [trace] = withBrush(FIGURE, KEYS, { throughput_per_s: [[150, 400]] }) as unknown as {
      dimensions: { constraintrange?: unknown }[];
    }[];
    expect(trace?.dimensions.map((d) => d.constraintrange)).toEqual([
      undefined,
      undefined,
      [150, 400],
    ]);
    // Round trip: what is drawn reads back as the same brush.
    expect(readBrush(trace?.dimensions ?? [], KEYS)).toEqual({ throughput_per_s: [[150, 400]] });
  });
});
