// A run's duration as the run tables and the run page show it: start to end, or to now while it
// runs (ticked by useNow so it keeps pace with the live panel instead of the list's polling).
import { useEffect, useState } from "react";
import type { RunPublic } from "@/api";
import { formatDuration } from "@/lib/format";

/** Seconds from the run's start to its end, or to `now` (ms) while it has not ended. */
export function runSeconds(
  run: Pick<RunPublic, "started_at" | "finished_at">,
  now: number,
): number | null {
  if (!run.started_at) return null;
  const end = run.finished_at ? new Date(run.finished_at).getTime() : now;
  return Math.max(0, (end - new Date(run.started_at).getTime()) / 1000);
}

/** The duration text: "–" before the start. */
export function runDuration(
  run: Pick<RunPublic, "started_at" | "finished_at">,
  now: number,
): string {
  const s = runSeconds(run, now);
  return s === null ? "–" : formatDuration(s);
}

/** The current time in ms, re-read every second while `ticking` (a run is running). */
export function useNow(ticking: boolean): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    setNow(Date.now());
    if (!ticking) return;
    const id = window.setInterval(() => setNow(Date.now()), 1000);
    return () => window.clearInterval(id);
  }, [ticking]);
  return now;
}
