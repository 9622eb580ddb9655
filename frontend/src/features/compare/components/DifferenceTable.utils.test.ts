import { describe, expect, it } from "vitest";
import { experimentName, intervalText } from "./DifferenceTable.utils";

describe("difference table cells", () => {
  it("shows a dash where there is no interval", () => {
    expect(intervalText(null, null)).toBe("–");
    expect(intervalText(-2.14, 0.147)).toBe("[-2.1, 0.1]");
  });

  it("names an experiment, or its id when unknown", () => {
    expect(experimentName(new Map([[1, "one middleware"]]), 1)).toBe("one middleware");
    expect(experimentName(new Map(), 7)).toBe("#7");
  });
});
