// A labelled number input with its unit and the server's 422 message under it.
import { FieldError } from "@/components/common/FieldError";

/** Props of NumberField. */
export interface NumberFieldProps {
  name: string;
  label: string;
  unit?: string;
  value: number;
  error?: string;
  onChange: (value: number) => void;
}

export function NumberField({ name, label, unit, value, error, onChange }: NumberFieldProps) {
  return (
    <div>
      <label>
        {label}
        {unit && <span className="hint"> ({unit})</span>}
        <input
          type="number"
          name={name}
          step="any"
          value={Number.isNaN(value) ? "" : value}
          aria-invalid={Boolean(error)}
          onChange={(e) => onChange(e.target.value === "" ? Number.NaN : Number(e.target.value))}
        />
      </label>
      <FieldError message={error} testId={`error-${name}`} />
    </div>
  );
}
