import { describe, expect, it } from "vitest";
import { figureRequest, figureUrl, pinParams } from "./serverFigure";

describe("figureUrl", () => {
  it("repeats list parameters and leaves out empty ones", () => {
    const url = figureUrl(
      {
        experimentId: 7,
        name: "throughput",
        params: {
          source: "client",
          x: "workers",
          pin: pinParams({ ratio: "1:9", sharded: "true" }),
          window_start_s: undefined,
        },
      },
      "pdf",
      { width: "column" },
    );
    expect(url).toBe(
      "/api/v1/experiments/7/figures/throughput.pdf?source=client&x=workers&pin=ratio%3D1%3A9&pin=sharded%3Dtrue&width=column",
    );
  });

  it("has no query string without parameters", () => {
    expect(figureUrl({ experimentId: 1, name: "qq", params: {} }, "json")).toBe(
      "/api/v1/experiments/1/figures/qq.json",
    );
  });
});

describe("figureRequest", () => {
  it("posts a compare figure's selection and brush with the asked width", () => {
    const { url, init } = figureRequest(
      {
        name: "compare-groups",
        body: { experiment_ids: [3, 1], x: "workers", brush: { workers: [[12, 20]] } },
      },
      "pdf",
      { width: "page" },
    );
    expect(url).toBe("/api/v1/compare/figures/compare-groups.pdf");
    expect(init.method).toBe("POST");
    expect(JSON.parse(String(init.body))).toEqual({
      experiment_ids: [3, 1],
      x: "workers",
      brush: { workers: [[12, 20]] },
      width: "page",
    });
  });

  it("gets an experiment's figure", () => {
    const { url, init } = figureRequest({ experimentId: 2, name: "qq", params: {} }, "json", {
      style: "screen",
    });
    expect(url).toBe("/api/v1/experiments/2/figures/qq.json?style=screen");
    expect(init.method).toBeUndefined();
  });
});
