import { describe, expect, it } from "vitest";
import { formatMbit, formatRtt } from "./network";

describe("network units", () => {
  it("shows round trips in ms", () => {
    expect(formatRtt(2412.3)).toBe("2.412 ms");
    expect(formatRtt(35_000)).toBe("35.0 ms");
    expect(formatRtt(null)).toBe("–");
  });
  it("shows bandwidth in Mbit/s", () => {
    expect(formatMbit(201.4)).toBe("201 Mbit/s");
    expect(formatMbit(54.25)).toBe("54.3 Mbit/s");
  });
});
