// Fixed values: parameters held constant across the grid (the rest keep their defaults).
import type { ParameterPublic } from "@/api";
import { FieldError } from "@/components/common/FieldError";
import {
  type DesignForm,
  describeRange,
  type FixedRow,
  unusedParameters,
} from "../utils/designForm";
import { AddParameterRow } from "./AddParameterRow";

/** Props of FixedEditor. */
export interface FixedEditorProps {
  parameters: ParameterPublic[];
  form: DesignForm;
  errors: Record<string, string>;
  onChange: (fixed: FixedRow[]) => void;
}

export function FixedEditor({ parameters, form, errors, onChange }: FixedEditorProps) {
  const available = unusedParameters(form, parameters);
  return (
    <fieldset data-testid="fixed-editor">
      <legend>Fixed values</legend>
      {form.fixed.map((f, i) => {
        const p = parameters.find((x) => x.name === f.name);
        return (
          <div key={f.name} className="param-row">
            <label>
              <span className="param-name" title={p?.description}>
                {f.name}
              </span>
              <input
                name={`fixed-${f.name}`}
                aria-label={`Value of ${f.name}`}
                value={f.value}
                onChange={(e) =>
                  onChange(
                    form.fixed.map((x, j) => (j === i ? { ...x, value: e.target.value } : x)),
                  )
                }
                aria-invalid={Boolean(errors[`fixed.${f.name}`])}
              />
            </label>
            <span className="hint">{p ? describeRange(p) : "unknown parameter"}</span>
            <button
              type="button"
              className="link"
              aria-label={`Remove fixed ${f.name}`}
              onClick={() => onChange(form.fixed.filter((_, j) => j !== i))}
            >
              Remove
            </button>
            <FieldError message={errors[`fixed.${f.name}`]} testId={`error-fixed-${f.name}`} />
          </div>
        );
      })}
      <FieldError message={errors.fixed} testId="error-fixed" />
      <AddParameterRow
        available={available}
        selectLabel="Parameter to fix"
        buttonLabel="Add fixed value"
        onAdd={(p) => onChange([...form.fixed, { name: p.name, value: String(p.default ?? "") }])}
      />
    </fieldset>
  );
}
