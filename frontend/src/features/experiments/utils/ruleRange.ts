// A repetition rule's range (minimum to cap) in words: runs, time and money.
import type { GridPreviewPublic, RuleRangePublic } from "@/api";
import { formatMoney } from "@/lib/cost";
import { formatDuration } from "@/lib/format";

/** "8 to 24" (runs), "4 min to 12 min" (time), "0.0200 USD to 0.0600 USD" (money, or null). */
export interface RangeText {
  runs: string;
  duration: string;
  cost: string | null;
  stopping: string;
}

export function describeRange(range: RuleRangePublic): RangeText {
  const { minimum: lo, maximum: hi } = range;
  const cost =
    lo.cost && hi.cost
      ? `${formatMoney(lo.cost.amount, lo.cost.currency)} to ${formatMoney(hi.cost.amount, hi.cost.currency)}`
      : null;
  return {
    runs: `${lo.runs} to ${hi.runs}`,
    duration: `${formatDuration(lo.estimated_seconds)} to ${formatDuration(hi.estimated_seconds)}`,
    cost,
    stopping: range.together
      ? `every configuration runs ${lo.repetitions} to ${hi.repetitions} times, all stopping together (a factorial design needs the same n in every cell)`
      : `each configuration runs ${lo.repetitions} to ${hi.repetitions} times, stopping on its own`,
  };
}

/** A design's estimated duration: a rule's range, a search's bound ("at most"), or the fixed
 * repetitions' one figure. */
export function estimateText(preview: GridPreviewPublic): string {
  if (preview.rule_range) return describeRange(preview.rule_range).duration;
  const time = formatDuration(preview.estimated_seconds);
  return preview.slo_search ? `at most ${time}` : time;
}
