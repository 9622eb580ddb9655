// Quality flags as small badges; each one's reason, rule and numbers show on hover.
import type { FlagPublic } from "@/api";

/** Short labels of the flag codes (the reason says the rest). */
export const FLAG_LABELS: Record<FlagPublic["code"], string> = {
  outlier_repetition: "outlier",
  trend: "trend",
  step: "step",
  warmup: "warm-up",
  throughput_disagreement: "client ≠ middleware",
  interactive_law: "N/(R+Z) off",
  unexpected_misses: "misses",
  tool_errors: "tool errors",
  cpu_steal: "CPU steal",
  memory_cap: "memory cap",
};

/** The hover text of a flag: what was seen, then the rule that decided. */
export function flagTitle(flag: FlagPublic): string {
  return `${flag.reason}\nrule: ${flag.rule}`;
}

/** Props of QualityBadges. */
export interface QualityBadgesProps {
  flags: FlagPublic[];
}

export function QualityBadges({ flags }: QualityBadgesProps) {
  if (flags.length === 0) return null;
  return (
    <span className="quality-badges" data-testid="quality-badges">
      {flags.map((f) => (
        <span
          key={`${f.code}-${f.run_id ?? ""}-${f.reason}`}
          className="badge badge-flag"
          title={flagTitle(f)}
          data-flag={f.code}
        >
          ⚑ {FLAG_LABELS[f.code]}
        </span>
      ))}
    </span>
  );
}
