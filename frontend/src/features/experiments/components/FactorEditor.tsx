// Factors of the grid: one row per varied parameter, levels typed per kind with units and ranges.
import type { ParameterPublic } from "@/api";
import { FieldError } from "@/components/common/FieldError";
import { type DesignForm, type FactorRow, unusedParameters } from "../utils/designForm";
import { AddParameterRow } from "./AddParameterRow";
import { ParameterRow } from "./ParameterRow";

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
      {form.factors.map((f, i) => (
        <ParameterRow
          key={f.name}
          name={f.name}
          parameter={parameters.find((x) => x.name === f.name)}
          value={f.levels}
          inputName={`factor-${f.name}`}
          inputLabel={`Levels of ${f.name}`}
          hintSuffix="comma separated"
          removeLabel={`Remove factor ${f.name}`}
          error={errors[`factors.${f.name}`]}
          errorTestId={`error-factors-${f.name}`}
          onValue={(levels) => setRow(i, levels)}
          onRemove={() => onChange(form.factors.filter((_, j) => j !== i))}
        />
      ))}
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
