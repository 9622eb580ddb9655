// A labelled select over factor names: the x axis and "one line per" pickers of results views.

/** Props of FactorSelect. */
export interface FactorSelectProps {
  label: string;
  factors: string[];
  value: string;
  onChange: (factor: string) => void;
}

export function FactorSelect({ label, factors, value, onChange }: FactorSelectProps) {
  return (
    <label>
      {label}
      <select value={value} onChange={(e) => onChange(e.target.value)}>
        {factors.map((f) => (
          <option key={f}>{f}</option>
        ))}
      </select>
    </label>
  );
}
