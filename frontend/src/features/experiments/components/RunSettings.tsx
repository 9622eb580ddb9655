// Repetitions and the run window: run time, warm-up and cool-down cut from each run.

import type { StableWindowPublic } from "@/api";
import { FieldError } from "@/components/common/FieldError";
import type { DesignForm } from "../utils/designForm";

/** Props of RunSettings. */
export interface RunSettingsProps {
  form: DesignForm;
  errors: Record<string, string>;
  onChange: (patch: Partial<DesignForm>) => void;
  /** The server's window for the last valid design; undefined while it is invalid or loading. */
  window: StableWindowPublic | null | undefined;
}

const FIELDS = [
  { key: "repetitions", label: "Repetitions", unit: "" },
  { key: "run_time_s", label: "Run time", unit: "s" },
  { key: "warmup_s", label: "Warm-up", unit: "s" },
  { key: "cooldown_s", label: "Cool-down", unit: "s" },
] as const;

export function RunSettings({ form, errors, onChange, window }: RunSettingsProps) {
  return (
    <fieldset>
      <legend>Runs</legend>
      <div className="grid-4">
        {FIELDS.map((f) => (
          <div key={f.key}>
            <label>
              {f.label}
              {f.unit && ` (${f.unit})`}
              <input
                type="number"
                name={f.key}
                min={0}
                value={Number.isNaN(form[f.key]) ? "" : form[f.key]}
                onChange={(e) =>
                  onChange({ [f.key]: e.target.value === "" ? Number.NaN : Number(e.target.value) })
                }
                aria-invalid={Boolean(errors[f.key])}
              />
            </label>
            <FieldError message={errors[f.key]} testId={`error-${f.key}`} />
          </div>
        ))}
      </div>
      {window && (
        <p className="hint" data-testid="window-hint">
          Measured window per run: {window.start_s} s to {window.end_s} s.
        </p>
      )}
    </fieldset>
  );
}
