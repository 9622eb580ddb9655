// Factors of the grid: one row per varied parameter, levels typed per kind with units and ranges.
import type { ParameterPublic } from "@/api";
import { FieldError } from "@/components/common/FieldError";
import {
  type DesignForm,
  describeRange,
  type FactorRow,
  unusedParameters,
} from "../utils/designForm";
import { AddParameterRow } from "./AddParameterRow";

/** Props of FactorEditor. */
export interface FactorEditorProps {
  parameters: ParameterPublic[];
  form: DesignForm;
  errors: Record<string, string>;
  onChange: (factors: FactorRow[]) => void;
}

export function FactorEditor({ parameters, form, errors, onChange }: FactorEditorProps) {
  const available = unusedParameters(form, parameters);
  const setRow = (i: number, levels: string) =>
    onChange(form.factors.map((f, j) => (j === i ? { ...f, levels } : f)));

  return (
    <fieldset data-testid="factor-editor">
      <legend>Factors</legend>
      {form.factors.length === 0 && <p className="hint">No factors: a single configuration.</p>}
      {form.factors.map((f, i) => {
        const p = parameters.find((x) => x.name === f.name);
        return (
          <div key={f.name} className="param-row">
            <label>
              <span className="param-name" title={p?.description}>
                {f.name}
              </span>
              <input
                name={`factor-${f.name}`}
                aria-label={`Levels of ${f.name}`}
                value={f.levels}
                onChange={(e) => setRow(i, e.target.value)}
                aria-invalid={Boolean(errors[`factors.${f.name}`])}
              />
            </label>
            <span className="hint">
              {p ? describeRange(p) : "unknown parameter"}; comma separated
            </span>
            <button
              type="button"
              className="link"
              aria-label={`Remove factor ${f.name}`}
              onClick={() => onChange(form.factors.filter((_, j) => j !== i))}
            >
              Remove
            </button>
            <FieldError message={errors[`factors.${f.name}`]} testId={`error-factors-${f.name}`} />
          </div>
        );
      })}
      <FieldError message={errors.factors} testId="error-factors" />
      <AddParameterRow
        available={available}
        selectLabel="Parameter to vary"
        buttonLabel="Add factor"
        onAdd={(p) =>
          onChange([...form.factors, { name: p.name, levels: String(p.default ?? "") }])
        }
      />
    </fieldset>
  );
}
