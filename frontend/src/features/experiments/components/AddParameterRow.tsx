// The "pick a parameter, add it" row shared by the factor and fixed-value editors.
import { useState } from "react";
import type { ParameterPublic } from "@/api";

/** Props of AddParameterRow. */
export interface AddParameterRowProps {
  /** Parameters not yet used by the design; the row hides itself when there are none. */
  available: ParameterPublic[];
  /** Accessible name of the parameter select. */
  selectLabel: string;
  buttonLabel: string;
  onAdd: (parameter: ParameterPublic) => void;
}

export function AddParameterRow({
  available,
  selectLabel,
  buttonLabel,
  onAdd,
}: AddParameterRowProps) {
  const [adding, setAdding] = useState("");
  if (available.length === 0) return null;
  const add = () => {
    const p = available.find((x) => x.name === adding) ?? available[0];
    if (!p) return;
    onAdd(p);
    setAdding("");
  };
  return (
    <div className="add-row">
      <select aria-label={selectLabel} value={adding} onChange={(e) => setAdding(e.target.value)}>
        {available.map((p) => (
          <option key={p.name} value={p.name}>
            {p.label}
          </option>
        ))}
      </select>
      <button type="button" onClick={add}>
        {buttonLabel}
      </button>
    </div>
  );
}
