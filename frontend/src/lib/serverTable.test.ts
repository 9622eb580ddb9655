import { describe, expect, it } from "vitest";
import { tableUrl } from "./serverTable";

describe("tableUrl", () => {
  it("asks the server for the table with the page's selection", () => {
    const table = {
      experimentId: 3,
      name: "summary" as const,
      params: { source: "middleware", request_type: "all", window_start_s: 10, window_end_s: 60 },
    };
    expect(tableUrl(table, "tex")).toBe(
      "/api/v1/experiments/3/tables/summary.tex?source=middleware&request_type=all&window_start_s=10&window_end_s=60",
    );
    expect(tableUrl({ experimentId: 3, name: "configuration", params: {} }, "csv")).toBe(
      "/api/v1/experiments/3/tables/configuration.csv",
    );
  });
});
