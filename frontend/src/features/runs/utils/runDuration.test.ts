import { describe, expect, it } from "vitest";
import { runDuration, runSeconds } from "./runDuration";

const start = "2026-11-26T10:00:00Z";

describe("runDuration", () => {
  it("is a dash before the run starts", () => {
    expect(runDuration({ started_at: null, finished_at: null }, Date.now())).toBe("–");
  });

  it("counts to the given now while the run has not ended", () => {
    const now = new Date("2026-11-26T10:01:05Z").getTime();
    expect(runSeconds({ started_at: start, finished_at: null }, now)).toBe(65);
    expect(runDuration({ started_at: start, finished_at: null }, now)).toBe("1 min 5 s");
  });

  it("ignores now once the run has ended", () => {
    const run = { started_at: start, finished_at: "2026-11-26T10:00:30Z" };
    expect(runDuration(run, Date.now())).toBe("30 s");
  });
});
