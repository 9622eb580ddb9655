import { describe, expect, it } from "vitest";
import { figureTable } from "./figureTable";

describe("figureTable", () => {
  it("puts each line in a column over the union of x, with its spread, bands left out", () => {
    const table = figureTable({
      data: [
        { x: [1, 4, 1, 1], y: [9, 9, 7, 7], fill: "toself", showlegend: false },
        { name: "8 worker threads", x: [1, 4], y: [10, 13], error_y: { array: [1, 2] } },
        { name: "16 worker threads", x: [4, 16], y: [14, 15], customdata: [0.5, 0.25] },
      ],
      layout: {
        xaxis: { title: { text: "Clients per thread" } },
        yaxis: { title: { text: "Throughput (ops/s)" } },
      },
    });
    expect(table?.header).toEqual([
      "Clients per thread",
      "8 worker threads throughput (ops/s)",
      "8 worker threads throughput std (ops/s)",
      "16 worker threads throughput (ops/s)",
      "16 worker threads throughput std (ops/s)",
    ]);
    expect(table?.rows).toEqual([
      [1, 10, 1, null, null],
      [4, 13, 2, 14, 0.5],
      [16, null, null, 15, 0.25],
    ]);
  });
  it("titles a line on the right-hand axis by that axis (its quantity and unit)", () => {
    const table = figureTable({
      data: [
        { name: "Throughput X(N)", x: [1, 2], y: [480, 910] },
        { name: "Response time R(N)", x: [1, 2], y: [2080, 2190], yaxis: "y2" },
      ],
      layout: {
        xaxis: { title: { text: "Virtual clients N" } },
        yaxis: { title: { text: "Throughput (ops/s)" } },
        yaxis2: { title: { text: "Response time (µs)" } },
      },
    });
    expect(table?.header).toEqual([
      "Virtual clients N",
      "Throughput X(N) throughput (ops/s)",
      "Response time R(N) response time (µs)",
    ]);
    expect(table?.rows).toEqual([
      [1, 480, 2080],
      [2, 910, 2190],
    ]);
  });

  it("names a single unnamed line by the axis title", () => {
    const table = figureTable({
      data: [{ x: ["a"], y: [1] }],
      layout: { xaxis: { title: { text: "Ratio" } }, yaxis: { title: { text: "Requests" } } },
    });
    expect(table?.header).toEqual(["Ratio", "Requests"]);
  });
  it("writes a bound as text", () => {
    const table = figureTable({
      data: [{ name: "p99", x: [1, 4], y: [100, 50000], text: ["", "≥"] }],
      layout: { yaxis: { title: { text: "Response time (µs)" } } },
    });
    expect(table?.rows).toEqual([
      [1, 100],
      [4, "≥ 50000"],
    ]);
  });
  it("has no table without a line", () => {
    expect(figureTable({ data: [{ type: "bar" }], layout: {} })).toBeUndefined();
  });
});
