// Adding a figure or table the server offers and the report does not hold yet.
import { useState } from "react";
import type { ReportItem } from "@/api";
import { addItem, availableChoices, type ReportChoice } from "../utils/items";

/** Props of AddItemPicker. */
export interface AddItemPickerProps {
  items: ReportItem[];
  choices: ReportChoice[];
  onChange: (items: ReportItem[]) => void;
}

export function AddItemPicker({ items, choices, onChange }: AddItemPickerProps) {
  const [picked, setPicked] = useState("");
  const free = availableChoices(items, choices);
  const choice = free.find((c) => `${c.kind}:${c.name}` === picked);
  return (
    <div className="actions toolbar" data-testid="report-add">
      <label className="hint">
        Add
        <select name="add-item" value={picked} onChange={(e) => setPicked(e.target.value)}>
          <option value="">choose a figure or table…</option>
          {(["figure", "table"] as const).map((kind) => (
            <optgroup key={kind} label={kind === "figure" ? "Figures" : "Tables"}>
              {free
                .filter((c) => c.kind === kind)
                .map((c) => (
                  <option key={c.name} value={`${c.kind}:${c.name}`}>
                    {c.title}
                  </option>
                ))}
            </optgroup>
          ))}
        </select>
      </label>
      <button
        type="button"
        disabled={!choice}
        onClick={() => {
          if (!choice) return;
          onChange(addItem(items, choice));
          setPicked("");
        }}
      >
        Add to report
      </button>
      <button type="button" disabled={items.length === 0} onClick={() => onChange([])}>
        Remove all
      </button>
    </div>
  );
}
