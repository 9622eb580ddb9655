// Shaping difference rows (numbers computed by the server) for the screen; the CSV and LaTeX
// files are the server's (POST /compare/tables/differences.{csv,tex}).
import type { DifferenceRowPublic } from "@/api";

type Verdict = DifferenceRowPublic["verdict"];

import { formatNumber } from "@/lib/format";

export const VERDICT_TEXT: Record<Verdict, string> = {
  significant: "significant",
  not_distinguishable: "not distinguishable from noise",
  insufficient: "too few repetitions",
};

/** A configuration's factor levels in words: "8 worker threads, 4 clients per thread". */
export type ValuesText = (values: Record<string, unknown>) => string;

export function experimentName(names: Map<number, string>, id: number): string {
  return names.get(id) ?? `#${id}`;
}

/** "[-2.1, 0.1]", or "–" when there is no interval. */
export function intervalText(low: number | null | undefined, high: number | null | undefined) {
  if (low === null || low === undefined || high === null || high === undefined) return "–";
  return `[${formatNumber(low)}, ${formatNumber(high)}]`;
}
