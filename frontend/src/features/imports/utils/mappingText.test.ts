import { describe, expect, it } from "vitest";
import { formatValues, parseValues } from "./mappingText";

describe("parseValues", () => {
  it("types integers and yes/no, keeps words", () => {
    expect(parseValues("servers=3, sharded=true, ratio=1:9")).toEqual({
      values: { servers: 3, sharded: true, ratio: "1:9" },
    });
  });
  it("names a piece without =", () => {
    expect(parseValues("servers").error).toContain("servers");
  });
  it("round-trips what it produces", () => {
    const { values } = parseValues("workers=16, ratio=0:1");
    expect(parseValues(formatValues(values)).values).toEqual(values);
  });
});
