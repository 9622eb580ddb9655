import { describe, expect, it } from "vitest";
import { foldRepeatedLines } from "./repeatedLines";

describe("foldRepeatedLines", () => {
  it("folds consecutive repeats and counts them", () => {
    const text = `exited with 1\n${"connection refused\n".repeat(30)}last line`;
    expect(foldRepeatedLines(text)).toEqual([
      { text: "exited with 1", count: 1 },
      { text: "connection refused", count: 30 },
      { text: "last line", count: 1 },
    ]);
  });

  it("keeps repeats that are not consecutive apart, and blank lines as lines", () => {
    expect(foldRepeatedLines("a\nb\na\n\n")).toEqual([
      { text: "a", count: 1 },
      { text: "b", count: 1 },
      { text: "a", count: 1 },
      { text: "", count: 2 },
    ]);
  });
});
