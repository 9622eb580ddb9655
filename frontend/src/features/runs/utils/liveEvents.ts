// Folding the experiment's server-sent events into live state: run counts and per-run progress.

/** The latest progress of one run (its chart is drawn by the server from every second). */
export interface RunProgress {
  runId: number;
  source: string;
  elapsedS: number;
  runTimeS: number;
  opsPerSec: number;
  meanLatencyUs: number | null;
}

export interface LiveState {
  /** Runs per status from the snapshot, updated by run events. */
  counts: Record<string, number>;
  progress: Record<number, RunProgress>;
  lastStatus: Record<number, string>;
}

export const EMPTY_LIVE: LiveState = { counts: {}, progress: {}, lastStatus: {} };

export type LiveEvent =
  | { type: "snapshot"; runs: Record<string, number> }
  | { type: "run"; run_id: number; status: string; error?: string | null }
  | {
      type: "progress";
      run_id: number;
      source: string;
      elapsed_s: number;
      run_time_s: number;
      ops_per_sec: number;
      mean_latency_us: number | null;
      /** Client instances combined into this second (source "clients": the run total). */
      instances?: number;
    };

/** Pure reducer: one event in, the next live state out. Unknown events change nothing. */
export function applyEvent(state: LiveState, event: LiveEvent): LiveState {
  switch (event.type) {
    case "snapshot":
      return { ...state, counts: { ...event.runs } };
    case "run": {
      const counts = { ...state.counts };
      const before = state.lastStatus[event.run_id];
      // Without a known previous status (the run changed before we connected) only the new
      // status can be counted; the periodic refetch corrects the totals.
      if (before && counts[before]) counts[before] = (counts[before] ?? 0) - 1;
      counts[event.status] = (counts[event.status] ?? 0) + 1;
      const progress = { ...state.progress };
      if (event.status !== "running") delete progress[event.run_id];
      return {
        counts,
        progress,
        lastStatus: { ...state.lastStatus, [event.run_id]: event.status },
      };
    }
    case "progress": {
      return {
        ...state,
        progress: {
          ...state.progress,
          [event.run_id]: {
            runId: event.run_id,
            source: event.source,
            elapsedS: event.elapsed_s,
            runTimeS: event.run_time_s,
            opsPerSec: event.ops_per_sec,
            meanLatencyUs: event.mean_latency_us,
          },
        },
      };
    }
    default:
      return state;
  }
}
