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
      <label>
        window from (s)
        <input
          type="number"
          name="window_start_s"
          value={start}
          placeholder="stored"
          aria-invalid={Boolean(errors.window_start_s)}
          onChange={(e) => setStart(e.target.value)}
        />
      </label>
      <label>
        to (s)
        <input
          type="number"
          name="window_end_s"
          value={end}
          placeholder="stored"
          aria-invalid={Boolean(errors.window_end_s)}
          onChange={(e) => setEnd(e.target.value)}
        />
      </label>
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
