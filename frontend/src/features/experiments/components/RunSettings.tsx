// Repetitions and the run window: run time, warm-up and cool-down cut from each run. Labels,
// units, bounds and defaults are the backend's declaration (GET /design-fields), the window is
// served.

import type { DesignFieldPublic, StableWindowPublic } from "@/api";
import { FieldError } from "@/components/common/FieldError";
import { type DesignForm, isDesignFieldKey } from "../utils/designForm";

/** Props of RunSettings. */
export interface RunSettingsProps {
  form: DesignForm;
  errors: Record<string, string>;
  onChange: (patch: Partial<DesignForm>) => void;
  /** The served design fields; undefined while they load. */
  fields: readonly DesignFieldPublic[] | undefined;
  /** The server's window for the last valid design; undefined while it is invalid or loading. */
  window: StableWindowPublic | null | undefined;
}

export function RunSettings({ form, errors, onChange, fields, window }: RunSettingsProps) {
  return (
    <fieldset>
      <legend>Runs</legend>
      <div className="grid-4">
        {(fields ?? []).map((f) => {
          const key = f.name;
          if (!isDesignFieldKey(key)) return null;
          const value = form[key] ?? f.default; // a field the form leaves out: its default
          return (
            <div key={key}>
              <label title={f.description}>
                {f.label}
                {f.unit && ` (${f.unit})`}
                <input
                  type="number"
                  name={key}
                  min={f.minimum}
                  max={f.maximum}
                  value={Number.isNaN(value) ? "" : value}
                  onChange={(e) =>
                    onChange({ [key]: e.target.value === "" ? Number.NaN : Number(e.target.value) })
                  }
                  aria-invalid={Boolean(errors[key])}
                />
              </label>
              <FieldError message={errors[key]} testId={`error-${key}`} />
            </div>
          );
        })}
      </div>
      {window && (
        <p className="hint" data-testid="window-hint">
          Measured window per run: {window.start_s} s to {window.end_s} s.
        </p>
      )}
    </fieldset>
  );
}
