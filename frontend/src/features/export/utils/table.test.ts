import { describe, expect, it } from "vitest";
import { escapeLatex, toCsv } from "./table";

describe("toCsv", () => {
  it("quotes cells with commas, quotes and newlines", () => {
    const csv = toCsv({ header: ['a "b"', "c,d"], rows: [["x\ny", 1]] });
    expect(csv).toBe('"a ""b""","c,d"\r\n"x\ny",1\r\n');
  });
});

describe("escapeLatex", () => {
  it("escapes LaTeX specials", () => {
    expect(escapeLatex("a_b & 50% #1 $x {y} ~ ^ \\")).toBe(
      "a\\_b \\& 50\\% \\#1 \\$x \\{y\\} \\textasciitilde{} \\textasciicircum{} \\textbackslash{}",
    );
  });
});
