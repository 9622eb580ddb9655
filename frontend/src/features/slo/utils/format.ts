// How the SLO panel writes latencies and rates: ms with their confidence interval.
import type { SloEstimatePublic } from "@/api";

export function ms(us: number): string {
  return `${(us / 1000).toFixed(us < 10_000 ? 2 : 1)} ms`;
}

/** "1.84 ms [1.79, 1.90]" (an unbounded upper end reads "≥ low"). */
export function formatEstimate(e: SloEstimatePublic | null | undefined): string {
  if (!e) return "—";
  const high = e.high_us == null ? "∞" : (e.high_us / 1000).toFixed(2);
  return `${ms(e.value_us)} [${(e.low_us / 1000).toFixed(2)}, ${high}]`;
}

export function rate(perS: number | null | undefined): string {
  return perS == null ? "—" : `${Math.round(perS).toLocaleString("en-US")}/s`;
}
