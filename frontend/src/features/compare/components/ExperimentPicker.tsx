// Choosing the compared experiments and which of them is the base.
import type { ExperimentPublic } from "@/api";

/** Props of ExperimentPicker. */
export interface ExperimentPickerProps {
  experiments: ExperimentPublic[];
  selected: number[];
  base: number | null;
  onChange: (selected: number[], base: number | null) => void;
}

export function ExperimentPicker({ experiments, selected, base, onChange }: ExperimentPickerProps) {
  const toggle = (id: number) => {
    const next = selected.includes(id) ? selected.filter((v) => v !== id) : [...selected, id];
    onChange(next, next.includes(base ?? -1) ? base : (next[0] ?? null));
  };
  if (experiments.length === 0) return <p className="hint">No experiments yet.</p>;
  return (
    <table className="table compact" data-testid="experiment-picker">
      <thead>
        <tr>
          <th>compare</th>
          <th>base</th>
          <th>experiment</th>
        </tr>
      </thead>
      <tbody>
        {experiments.map((e) => (
          <tr key={e.id}>
            <td>
              <input
                type="checkbox"
                aria-label={`compare ${e.name}`}
                checked={selected.includes(e.id)}
                onChange={() => toggle(e.id)}
              />
            </td>
            <td>
              <input
                type="radio"
                name="base-experiment"
                aria-label={`base ${e.name}`}
                disabled={!selected.includes(e.id)}
                checked={base === e.id}
                onChange={() => onChange(selected, e.id)}
              />
            </td>
            <td>{e.name}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
