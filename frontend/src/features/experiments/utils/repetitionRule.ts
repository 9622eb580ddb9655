// The repetition rule in words, as the design page and the experiment page state it.
import type { RepetitionRuleSpec } from "@/api";

/** "until the 95 % interval of the mean throughput is within ±5 % (3 to 10 repetitions)". */
export function describeRule(
  rule: RepetitionRuleSpec,
  metricLabel: (name: string) => string,
): string {
  const confidence = Math.round((rule.confidence ?? 0.95) * 1000) / 10;
  const metric = metricLabel(rule.metric ?? "throughput_per_s");
  return (
    `until the ${confidence} % interval of the mean ${metric} (${rule.source ?? "client"}) ` +
    `is within ±${rule.half_width_pct ?? 5} % of the mean ` +
    `(${rule.min_repetitions ?? 3} to ${rule.max_repetitions ?? 10} repetitions)`
  );
}
