// Display helpers: durations and numbers as researchers read them.

/** 5400 -> "1 h 30 min", 95 -> "1 min 35 s". */
export function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  const d = Math.floor(s / 86400);
  const h = Math.floor((s % 86400) / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = s % 60;
  const parts: string[] = [];
  if (d) parts.push(`${d} d`);
  if (h) parts.push(`${h} h`);
  if (m) parts.push(`${m} min`);
  if (sec && !d && !h) parts.push(`${sec} s`);
  return parts.length ? parts.join(" ") : "0 s";
}

/** Where the estimate's overhead per run comes from: "+1.6 s per run, measured on local
 * (20 runs)", or "+8 s per run, the default (no runs on local yet)". */
export function formatOverhead(o: {
  seconds: number;
  source: "measured" | "default";
  runs: number;
  testbed: string;
}): string {
  const per = `+${formatNumber(o.seconds)} s per run`;
  return o.source === "measured"
    ? `${per}, measured on ${o.testbed} (${o.runs} run${o.runs === 1 ? "" : "s"})`
    : `${per}, the default (no runs on ${o.testbed} yet)`;
}

export function formatNumber(value: number | null | undefined, digits = 1): string {
  if (value === null || value === undefined || Number.isNaN(value)) return "–";
  return value.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: 0 });
}

export function formatValue(value: unknown): string {
  if (typeof value === "string") return value;
  return JSON.stringify(value);
}

/** A factor's levels in a line: runs of three or more consecutive integers as a range
 * ("1–50" for fifty levels, "1–3, 8, 16"); other levels as formatValue writes them. */
export function formatLevels(levels: unknown[]): string {
  const parts: string[] = [];
  let i = 0;
  while (i < levels.length) {
    const start = levels[i];
    let j = i;
    while (
      Number.isInteger(start) &&
      Number.isInteger(levels[j + 1]) &&
      (levels[j + 1] as number) === (levels[j] as number) + 1
    )
      j += 1;
    if (j - i >= 2) parts.push(`${start}–${levels[j]}`);
    else for (const v of levels.slice(i, j + 1)) parts.push(formatValue(v));
    i = j + 1;
  }
  return parts.join(", ");
}

/** Runs done over total, from the API's per-status counts. */
export function runProgress(counts: Record<string, number>): { done: number; total: number } {
  const total = Object.values(counts).reduce((a, b) => a + b, 0);
  return { done: counts.succeeded ?? 0, total };
}
