import { describe, expect, it } from "vitest";
import type { ConfigurationTablePublic } from "@/api";
import { metricLabels, parameterLabels } from "@/lib/labels";
import { SERVED_METRICS, SERVED_PARAMETERS } from "@/test/served";
import {
  brushedIds,
  measuredRows,
  normalizeRange,
  parcoordsAxes,
} from "./ParallelCoordinates.utils";

const TABLE: ConfigurationTablePublic = {
  parameters: ["workers", "ratio"],
  metrics: ["throughput_per_s", "response_time_us"],
  units: { throughput_per_s: "ops/s", response_time_us: "us" },
  count: 4,
  data: [
    {
      experiment_id: 1,
      configuration_id: 11,
      values: { workers: 8, ratio: "1:0" },
      repetitions: 3,
      metrics: { throughput_per_s: 100, response_time_us: 50 },
    },
    {
      experiment_id: 1,
      configuration_id: 12,
      values: { workers: 16, ratio: "0:1" },
      repetitions: 3,
      metrics: { throughput_per_s: 200, response_time_us: 40 },
    },
    {
      experiment_id: 2,
      configuration_id: 21,
      values: { workers: 32, ratio: "1:0" },
      repetitions: 3,
      metrics: { throughput_per_s: 300, response_time_us: 30 },
    },
    {
      experiment_id: 2,
      configuration_id: 22,
      values: { workers: 64, ratio: "1:0" },
      repetitions: 0,
      metrics: { throughput_per_s: null, response_time_us: null },
    },
  ],
};
const NAMES = new Map([
  [1, "A"],
  [2, "B"],
]);

describe("parallel coordinates", () => {
  const rows = measuredRows(TABLE);
  const axes = parcoordsAxes(TABLE, rows, NAMES, {
    parameters: parameterLabels(SERVED_PARAMETERS),
    metrics: metricLabels(SERVED_METRICS),
  });

  it("has an axis per experiment, parameter and metric; text levels become ticks", () => {
    expect(rows.map((r) => r.configuration_id)).toEqual([11, 12, 21]);
    expect(axes.map((a) => a.label)).toEqual([
      "experiment",
      "worker threads",
      "SET:GET ratio",
      "throughput (ops/s)",
      "response time (µs)",
    ]);
    expect(axes[0]).toMatchObject({ values: [0, 0, 1], ticktext: ["A", "B"] });
    expect(axes[2]).toMatchObject({ values: [1, 0, 1], ticktext: ["0:1", "1:0"] });
    // A numeric parameter is ticked at its levels only.
    expect(axes[1]).toMatchObject({ values: [8, 16, 32], tickvals: [8, 16, 32] });
  });

  it("keys axes by the API's names, whatever their titles", () => {
    expect(axes.map((a) => a.key)).toEqual([
      "experiment",
      "workers",
      "ratio",
      "throughput_per_s",
      "response_time_us",
    ]);
  });

  it("brushing keeps the configurations inside every brushed axis", () => {
    expect(brushedIds(rows, axes, {})).toBeNull();
    expect(brushedIds(rows, axes, { throughput_per_s: [[150, 400]] })).toEqual(new Set([12, 21]));
    expect(
      brushedIds(rows, axes, { throughput_per_s: [[150, 400]], experiment: [[-0.5, 0.5]] }),
    ).toEqual(new Set([12]));
    expect(
      brushedIds(rows, axes, {
        workers: [
          [0, 10],
          [30, 40],
        ],
      }),
    ).toEqual(new Set([11, 21]));
  });

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
  });
});
