import { describe, expect, it } from "vitest";
import { formatDuration, formatNumber, runProgress } from "./format";

describe("formatDuration", () => {
  it("reads as researchers write it", () => {
    expect(formatDuration(0)).toBe("0 s");
    expect(formatDuration(95)).toBe("1 min 35 s");
    expect(formatDuration(5400)).toBe("1 h 30 min");
    expect(formatDuration(7 * 3600 + 1)).toBe("7 h");
    expect(formatDuration(90000)).toBe("1 d 1 h");
  });
});

describe("formatNumber and runProgress", () => {
  it("formats missing values as a dash", () => {
    expect(formatNumber(null)).toBe("–");
    expect(formatNumber(11469.44)).toBe("11,469.4");
  });

  it("counts succeeded runs over all runs", () => {
    expect(runProgress({ queued: 2, running: 1, succeeded: 5, failed: 1, cancelled: 0 })).toEqual({
      done: 5,
      total: 9,
    });
  });
});
