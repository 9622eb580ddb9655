// Full grid or a 2^(k-p) fraction of it: by resolution, or by generators over the factors'
// letters (A = the first factor, B = the second, ...; I is skipped).
import { FieldError } from "@/components/common/FieldError";
import { type DesignForm, type FractionForm, FULL_GRID } from "../utils/designForm";

/** Props of FractionEditor. */
export interface FractionEditorProps {
  form: DesignForm;
  errors: Record<string, string>;
  onChange: (fraction: FractionForm) => void;
}

const LETTERS = "ABCDEFGHJKLMNOPQRSTUVWXYZ";
const RESOLUTIONS = [
  { value: 3, label: "III: main effects clear of each other" },
  { value: 4, label: "IV: main effects clear of two-factor interactions" },
  { value: 5, label: "V: two-factor interactions clear of each other" },
];

export function FractionEditor({ form, errors, onChange }: FractionEditorProps) {
  const f = form.fraction ?? FULL_GRID;
  const set = (patch: Partial<FractionForm>) => onChange({ ...f, ...patch });
  const letters = form.factors.map((x, i) => `${LETTERS[i]} = ${x.name}`).join(", ");
  return (
    <fieldset data-testid="fraction-editor">
      <legend>Design</legend>
      <div className="radio-row">
        <label>
          <input
            type="radio"
            name="fraction-mode"
            checked={f.mode === "full"}
            onChange={() => set({ mode: "full" })}
          />
          Full grid
        </label>
        <label>
          <input
            type="radio"
            name="fraction-mode"
            checked={f.mode === "resolution"}
            onChange={() => set({ mode: "resolution" })}
          />
          Fraction by resolution
        </label>
        <label>
          <input
            type="radio"
            name="fraction-mode"
            checked={f.mode === "generators"}
            onChange={() => set({ mode: "generators" })}
          />
          Fraction by generators
        </label>
      </div>
      {f.mode === "resolution" && (
        <label>
          Resolution
          <select
            name="fraction-resolution"
            value={f.resolution}
            onChange={(e) => set({ resolution: Number(e.target.value) })}
            aria-invalid={Boolean(errors["fraction.resolution"])}
          >
            {RESOLUTIONS.map((r) => (
              <option key={r.value} value={r.value}>
                {r.label}
              </option>
            ))}
          </select>
        </label>
      )}
      {f.mode === "generators" && (
        <label>
          Generators
          <input
            name="fraction-generators"
            placeholder="D = AB, E = AC"
            value={f.generators}
            onChange={(e) => set({ generators: e.target.value })}
            aria-invalid={Boolean(errors["fraction.generators"])}
          />
        </label>
      )}
      <FieldError
        message={errors["fraction.generators"] ?? errors["fraction.resolution"] ?? errors.fraction}
        testId="error-fraction"
      />
      {f.mode !== "full" && (
        <p className="hint">
          For "which factors matter" questions: every factor needs exactly two levels (the first is
          −1). Letters: {letters || "add factors first"}.
        </p>
      )}
    </fieldset>
  );
}
