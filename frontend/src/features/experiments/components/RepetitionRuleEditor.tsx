// Repetitions by a rule fixed before Start: after `repetitions` runs, a configuration gets more
// until the interval of its mean main metric is narrow enough, up to a cap.
import type { RepetitionRuleSpec } from "@/api";
import { FieldError } from "@/components/common/FieldError";
import { useMetricLabels } from "@/lib/hooks/useMetricLabels";
import { DEFAULT_RULE, type DesignForm, type RuleForm } from "../utils/designForm";

/** Props of RepetitionRuleEditor. */
export interface RepetitionRuleEditorProps {
  form: DesignForm;
  errors: Record<string, string>;
  onChange: (patch: Partial<DesignForm>) => void;
}

// The metrics a rule usually judges: the main results of the results page.
const METRICS: NonNullable<RepetitionRuleSpec["metric"]>[] = [
  "throughput_per_s",
  "response_time_us",
  "p99_us",
];

const NUMBERS = [
  { key: "half_width_pct", label: "Target half-width (% of the mean)", step: 0.5 },
  { key: "confidence", label: "Confidence level", step: 0.01 },
  { key: "max_repetitions", label: "Maximum repetitions", step: 1 },
] as const;

export function RepetitionRuleEditor({ form, errors, onChange }: RepetitionRuleEditorProps) {
  const metrics = useMetricLabels();
  const rule = form.rule ?? null;
  const set = (patch: Partial<RuleForm>) => rule && onChange({ rule: { ...rule, ...patch } });
  const error = (key: string) => errors[`repetition_rule.${key}`];
  return (
    <fieldset data-testid="repetition-rule">
      <legend>Repetition rule</legend>
      <label className="inline">
        <input
          type="checkbox"
          name="rule-on"
          checked={rule !== null}
          onChange={(e) => onChange({ rule: e.target.checked ? DEFAULT_RULE : null })}
        />{" "}
        Add repetitions until the confidence interval is narrow enough
      </label>
      {rule && (
        <>
          <div className="grid-4">
            <label>
              Main metric
              <select
                name="rule-metric"
                value={rule.metric}
                onChange={(e) => set({ metric: e.target.value as RuleForm["metric"] })}
              >
                {METRICS.map((m) => (
                  <option key={m} value={m}>
                    {metrics.label(m)}
                  </option>
                ))}
              </select>
            </label>
            {NUMBERS.map((f) => (
              <div key={f.key}>
                <label>
                  {f.label}
                  <input
                    type="number"
                    name={`rule-${f.key}`}
                    step={f.step}
                    value={Number.isNaN(rule[f.key]) ? "" : rule[f.key]}
                    onChange={(e) =>
                      set({ [f.key]: e.target.value === "" ? Number.NaN : Number(e.target.value) })
                    }
                    aria-invalid={Boolean(error(f.key))}
                  />
                </label>
                <FieldError message={error(f.key)} testId={`error-rule-${f.key}`} />
              </div>
            ))}
          </div>
          <FieldError message={error("min_repetitions")} testId="error-rule-min_repetitions" />
          <p className="hint" data-testid="rule-hint">
            Each configuration first runs {form.repetitions ?? "its repetitions"} times (the
            repetitions above, the minimum); the worker then adds one run at a time while the{" "}
            {Math.round(rule.confidence * 100)} % t interval of its mean{" "}
            {metrics.label(rule.metric)} is wider than ±{rule.half_width_pct} % of the mean, up to{" "}
            {rule.max_repetitions}. The rule is fixed once the experiment starts.
          </p>
        </>
      )}
    </fieldset>
  );
}
