// Fixed values: parameters held constant across the grid (the rest keep their defaults).
import type { ParameterPublic } from "@/api";
import { FieldError } from "@/components/common/FieldError";
import { type DesignForm, type FixedRow, unusedParameters } from "../utils/designForm";
import { AddParameterRow } from "./AddParameterRow";
import { ParameterRow } from "./ParameterRow";

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
      {form.fixed.map((f, i) => (
        <ParameterRow
          key={f.name}
          name={f.name}
          parameter={parameters.find((x) => x.name === f.name)}
          value={f.value}
          inputName={`fixed-${f.name}`}
          inputLabel={`Value of ${f.name}`}
          removeLabel={`Remove fixed ${f.name}`}
          error={errors[`fixed.${f.name}`]}
          errorTestId={`error-fixed-${f.name}`}
          onValue={(value) => onChange(form.fixed.map((x, j) => (j === i ? { ...x, value } : x)))}
          onRemove={() => onChange(form.fixed.filter((_, j) => j !== i))}
        />
      ))}
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
