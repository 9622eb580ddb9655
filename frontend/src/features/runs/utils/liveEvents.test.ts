import { describe, expect, it } from "vitest";
import { applyEvent, EMPTY_LIVE, HISTORY, type LiveEvent } from "./liveEvents";

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

  it("keeps per-run progress with its throughput history, dropped when the run ends", () => {
    let s = applyEvent(EMPTY_LIVE, { type: "run", run_id: 7, status: "running" });
    s = applyEvent(s, progress(7, 1, 1000));
    s = applyEvent(s, progress(7, 2, 1200));
    expect(s.progress[7]).toMatchObject({
      elapsedS: 2,
      runTimeS: 90,
      opsPerSec: 1200,
      history: [
        [1, 1000],
        [2, 1200],
      ],
    });
    s = applyEvent(s, { type: "run", run_id: 7, status: "failed", error: "ssh" });
    expect(s.progress[7]).toBeUndefined();
  });

  it("bounds the history", () => {
    let s = EMPTY_LIVE;
    for (let t = 0; t < HISTORY + 5; t++) s = applyEvent(s, progress(1, t, t));
    expect(s.progress[1]?.history).toHaveLength(HISTORY);
    expect(s.progress[1]?.history[0]).toEqual([5, 5]);
  });

  it("ignores events it does not know", () => {
    const unknown = { type: "other" } as unknown as LiveEvent;
    expect(applyEvent(EMPTY_LIVE, unknown)).toBe(EMPTY_LIVE);
  });
});
