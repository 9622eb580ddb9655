import { describe, expect, it } from "vitest";
import { applyEvent, EMPTY_LIVE, type LiveEvent } from "./liveEvents";

function progress(run: number, elapsed: number, ops: number): LiveEvent {
  return {
    type: "progress",
    run_id: run,
    source: "client:memtier-0",
    elapsed_s: elapsed,
    run_time_s: 90,
    ops_per_sec: ops,
    mean_latency_us: 800,
  };
}

describe("applyEvent", () => {
  it("starts from the snapshot and moves runs between statuses", () => {
    let s = applyEvent(EMPTY_LIVE, { type: "snapshot", runs: { queued: 3 } });
    s = applyEvent(s, { type: "run", run_id: 1, status: "running" });
    expect(s.counts).toEqual({ queued: 3, running: 1 });
    s = applyEvent(s, { type: "run", run_id: 1, status: "succeeded" });
    expect(s.counts).toEqual({ queued: 3, running: 0, succeeded: 1 });
  });

  it("keeps each run's latest second, dropped when the run ends", () => {
    let s = applyEvent(EMPTY_LIVE, { type: "run", run_id: 7, status: "running" });
    s = applyEvent(s, progress(7, 1, 1000));
    s = applyEvent(s, progress(7, 2, 1200));
    expect(s.progress[7]).toMatchObject({
      elapsedS: 2,
      runTimeS: 90,
      opsPerSec: 1200,
      meanLatencyUs: 800,
    });
    s = applyEvent(s, { type: "run", run_id: 7, status: "failed", error: "ssh" });
    expect(s.progress[7]).toBeUndefined();
  });

  it("ignores events it does not know", () => {
    const unknown = { type: "other" } as unknown as LiveEvent;
    expect(applyEvent(EMPTY_LIVE, unknown)).toBe(EMPTY_LIVE);
  });
});
