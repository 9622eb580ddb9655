// A labelled select over factor names: the x axis and "one line per" pickers of results views.

/** Props of FactorSelect. */
export interface FactorSelectProps {
  label: string;
  factors: string[];
  value: string;
  onChange: (factor: string) => void;
  /** Human label of a factor; the raw name without it. */
  labelOf?: (factor: string) => string;
}

export function FactorSelect({ label, factors, value, onChange, labelOf }: FactorSelectProps) {
  return (
    <label>
      {label}
      <select value={value} onChange={(e) => onChange(e.target.value)}>
        {factors.map((f) => (
          <option key={f} value={f}>
            {labelOf ? labelOf(f) : f}
          </option>
        ))}
      </select>
    </label>
  );
}
