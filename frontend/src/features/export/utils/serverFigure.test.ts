import { describe, expect, it } from "vitest";
import { figureUrl, pinParams } from "./serverFigure";

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
