import { describe, expect, it } from "vitest";
import { parseAsIdList, parseAsPins, parseAsWindow } from "./parsers";

describe("shared URL parsers", () => {
  it("round-trips a window and rejects malformed ones", () => {
    expect(parseAsWindow.serialize({ start: 10, end: 50.5 })).toBe("10-50.5");
    expect(parseAsWindow.parse("10-50.5")).toEqual({ start: 10, end: 50.5 });
    expect(parseAsWindow.parse("10")).toBeNull();
    expect(parseAsWindow.parse("a-b")).toBeNull();
  });

  it("round-trips pinned levels, levels containing ':' included, in a stable order", () => {
    const pins = { ratio: "1:9", workers: "8", sharded: "true" };
    const text = parseAsPins.serialize(pins);
    expect(text).toBe("ratio:1:9~sharded:true~workers:8");
    expect(parseAsPins.parse(text)).toEqual(pins);
    expect(parseAsPins.parse("nocolon")).toBeNull();
    expect(parseAsPins.eq(pins, { workers: "8", sharded: "true", ratio: "1:9" })).toBe(true);
  });

  it("round-trips id lists", () => {
    expect(parseAsIdList.parse(parseAsIdList.serialize([3, 7, 12]))).toEqual([3, 7, 12]);
  });
});
