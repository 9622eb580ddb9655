// The design preview's statement of a repetition rule's range: minimum to cap.
import type { RuleRangePublic } from "@/api";
import { describeRange } from "../utils/ruleRange";

/** Props of RuleRange. */
export interface RuleRangeProps {
  range: RuleRangePublic;
}

export function RuleRange({ range }: RuleRangeProps) {
  const text = describeRange(range);
  return (
    <p className="hint" data-testid="preview-rule-range">
      With the repetition rule: {text.runs} runs, {text.duration}
      {text.cost && `, ${text.cost}`}; {text.stopping}. Budget for the cap: a noisy configuration
      reaches it.
    </p>
  );
}
