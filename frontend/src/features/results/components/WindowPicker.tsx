// Re-cutting the measured window of every run (seconds from the run's start), or the stored one.
import { useState } from "react";
import { FieldError } from "@/components/common/FieldError";
import type { ResultWindow } from "@/lib/queryKeys";

/** Props of WindowPicker. */
export interface WindowPickerProps {
  value: ResultWindow | undefined;
  errors: Record<string, string>;
  onChange: (value: ResultWindow | undefined) => void;
}

export function WindowPicker({ value, errors, onChange }: WindowPickerProps) {
  const [start, setStart] = useState(value ? String(value.start) : "");
  const [end, setEnd] = useState(value ? String(value.end) : "");
  return (
    <div className="window-picker">
      <SecondsField
        label="window from (s)"
        name="window_start_s"
        value={start}
        invalid={Boolean(errors.window_start_s)}
        onChange={setStart}
      />
      <SecondsField
        label="to (s)"
        name="window_end_s"
        value={end}
        invalid={Boolean(errors.window_end_s)}
        onChange={setEnd}
      />
      <button type="button" onClick={() => onChange({ start: Number(start), end: Number(end) })}>
        Re-cut
      </button>
      <button
        type="button"
        className="link"
        disabled={!value}
        onClick={() => {
          setStart("");
          setEnd("");
          onChange(undefined);
        }}
      >
        Stored window
      </button>
      <FieldError message={errors.window_start_s ?? errors.window_end_s} testId="error-window" />
    </div>
  );
}

/** One bound of the window: a number of seconds, empty meaning "the stored window". */
function SecondsField(props: {
  label: string;
  name: string;
  value: string;
  invalid: boolean;
  onChange: (value: string) => void;
}) {
  return (
    <label>
      {props.label}
      <input
        type="number"
        name={props.name}
        value={props.value}
        placeholder="stored"
        aria-invalid={props.invalid}
        onChange={(e) => props.onChange(e.target.value)}
      />
    </label>
  );
}
