import { describe, expect, it } from "vitest";
import { toCsv } from "./table";

describe("toCsv", () => {
  it("quotes cells with commas, quotes and newlines", () => {
    const csv = toCsv({ header: ['a "b"', "c,d"], rows: [["x\ny", 1]] });
    expect(csv).toBe('"a ""b""","c,d"\r\n"x\ny",1\r\n');
  });
});
