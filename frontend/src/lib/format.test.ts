import { describe, expect, it } from "vitest";
import { formatDuration, formatLevels, formatNumber, formatOverhead, runProgress } from "./format";

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

describe("formatLevels", () => {
  it("writes runs of three or more consecutive integers as a range", () => {
    expect(formatLevels(Array.from({ length: 50 }, (_, i) => i + 1))).toBe("1–50");
    expect(formatLevels([1, 2, 3, 8, 16])).toBe("1–3, 8, 16");
    expect(formatLevels([1, 2, 4, 8])).toBe("1, 2, 4, 8");
    expect(formatLevels([1, 4, 8, 16, 32, 48])).toBe("1, 4, 8, 16, 32, 48");
  });

  it("leaves text and fractional levels as they are", () => {
    expect(formatLevels(["1:9", "1:1"])).toBe("1:9, 1:1");
    expect(formatLevels([0.5, 1.5, 2.5, true])).toBe("0.5, 1.5, 2.5, true");
  });
});

describe("formatOverhead", () => {
  it("says where the overhead per run was measured, or that it is the default", () => {
    expect(formatOverhead({ seconds: 1.55, source: "measured", runs: 20, testbed: "local" })).toBe(
      "+1.6 s per run, measured on local (20 runs)",
    );
    expect(formatOverhead({ seconds: 2, source: "measured", runs: 1, testbed: "lab" })).toBe(
      "+2 s per run, measured on lab (1 run)",
    );
    expect(formatOverhead({ seconds: 8, source: "default", runs: 0, testbed: "local" })).toBe(
      "+8 s per run, the default (no runs on local yet)",
    );
  });
});
