// What the design is: a grid of factors (every combination runs), or a latency-SLO search
// (the search chooses each probe's offered load). Switching keeps the other mode's fields.
import { NEW_SEARCH } from "@/features/slo";
import type { DesignForm } from "../utils/designForm";

/** Props of DesignModePicker. */
export interface DesignModePickerProps {
  form: DesignForm;
  onChange: (patch: Partial<DesignForm>) => void;
}

export function DesignModePicker({ form, onChange }: DesignModePickerProps) {
  const search = Boolean(form.slo);
  return (
    <fieldset data-testid="design-mode">
      <legend>Design</legend>
      <label className="inline-check">
        <input
          type="radio"
          name="design-mode"
          value="grid"
          checked={!search}
          onChange={() => onChange({ slo: null })}
        />{" "}
        Grid of factors
      </label>{" "}
      <label className="inline-check">
        <input
          type="radio"
          name="design-mode"
          value="slo"
          checked={search}
          onChange={() => onChange({ slo: NEW_SEARCH })}
        />{" "}
        Latency-SLO search
      </label>
    </fieldset>
  );
}
