// The CSV of one run's per-second series (the figure itself is the server's "time-series").
import type { RunSeriesPublic } from "@/api";
import { displayUnit } from "@/lib/labels";
import type { ResultWindow } from "@/lib/queryKeys";
import type { SummaryTable } from "@/lib/table";

function unitOf(series: RunSeriesPublic, field: string, fallback: string): string {
  return displayUnit(series.units[field] ?? fallback) ?? fallback;
}

export function storedWindow(series: RunSeriesPublic): ResultWindow {
  return { start: series.window_start_s, end: series.window_end_s };
}

/** Second, combined throughput and response time, and whether the second is measured. */
export function timeSeriesTable(series: RunSeriesPublic): SummaryTable {
  const { time_s, throughput, response_time_us } = series.combined;
  const { start, end } = storedWindow(series);
  return {
    header: [
      `time (${unitOf(series, "time_s", "s")})`,
      `throughput (${unitOf(series, "throughput", "ops/s")})`,
      `response time (${unitOf(series, "response_time_us", "us")})`,
      "in stable window",
    ],
    rows: time_s.map((t, i) => [
      t,
      throughput[i] ?? null,
      response_time_us[i] ?? null,
      t >= start && t < end ? "yes" : "no",
    ]),
  };
}
