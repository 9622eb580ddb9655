import { describe, expect, it } from "vitest";
import { emptyResults } from "./emptyResults";

const counts = (c: Record<string, number>) => ({
  queued: 0,
  running: 0,
  succeeded: 0,
  failed: 0,
  cancelled: 0,
  ...c,
});

describe("emptyResults", () => {
  it("says a draft is not started", () => {
    expect(emptyResults(counts({}), "all").title).toBe("Not started");
  });

  it("says results are coming while runs are queued or running", () => {
    expect(emptyResults(counts({ queued: 3, running: 1 }), "all")).toEqual({
      title: "No results yet",
      text: "Results appear here as runs finish.",
    });
  });

  it("names the failures of a run still going", () => {
    expect(emptyResults(counts({ running: 1, failed: 2 }), "all").text).toContain(
      "No run has succeeded so far (2 failed)",
    );
  });

  it("never says 'No results yet' when every run failed", () => {
    const e = emptyResults(counts({ failed: 4, cancelled: 1 }), "all");
    expect(e.title).toBe("No run succeeded");
    expect(e.text).toBe(
      "4 runs failed, 1 cancelled: the runs table says why. Resume to retry them.",
    );
    expect(emptyResults(counts({ failed: 1 }), "all").text).toMatch(/^1 run failed:/);
  });

  it("says a cancelled experiment was cancelled", () => {
    expect(emptyResults(counts({ cancelled: 6 }), "all").title).toBe(
      "Cancelled before any run succeeded",
    );
  });

  it("blames the selection once a run succeeded", () => {
    expect(emptyResults(counts({ succeeded: 2 }), "all").title).toBe(
      "No measurements for this selection",
    );
    expect(emptyResults(counts({ succeeded: 2, running: 1 }), "multiget").title).toBe(
      "This experiment sent no multi-get requests",
    );
  });
});
