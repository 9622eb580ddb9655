// A destructive action confirmed by typing the thing's name again: what it does in words, the
// name field (the API checks the name too; its 422 shows under the field, any other error in
// a toast), the action's button and Cancel.
import { type ReactNode, useEffect, useState } from "react";
import { FieldError } from "@/components/common/FieldError";
import { handleError } from "@/components/common/handleError";
import { fieldErrors } from "@/lib/apiError";

/** Props of ConfirmByName. */
export interface ConfirmByNameProps {
  /** What must be typed, and what the button names. */
  name: string;
  /** What the action does, said before the field. */
  consequence: ReactNode;
  /** The input's name (the tests and the browser's form filling find it by it). */
  inputName: string;
  errorTestId: string;
  /** Carries the action out with the typed name; calls `done` once it succeeded. */
  onConfirm: (typed: string, done: () => void) => void;
  onCancel: () => void;
  pending: boolean;
  error: unknown;
  verb?: string;
}

export function ConfirmByName({
  name,
  consequence,
  inputName,
  errorTestId,
  onConfirm,
  onCancel,
  pending,
  error,
  verb = "Delete",
}: ConfirmByNameProps) {
  const [typed, setTyped] = useState("");
  const nameError = fieldErrors(error).name;
  useEffect(() => {
    if (error && !nameError) handleError(error);
  }, [error, nameError]);
  return (
    <form
      className="card inset"
      onSubmit={(e) => {
        e.preventDefault();
        onConfirm(typed, onCancel);
      }}
    >
      <label>
        {consequence} Type <code>{name}</code> to confirm.
        <input
          name={inputName}
          value={typed}
          autoComplete="off"
          onChange={(e) => setTyped(e.target.value)}
          aria-invalid={Boolean(nameError)}
        />
      </label>
      <FieldError message={nameError} testId={errorTestId} />
      <div className="actions">
        <button type="submit" className="danger" disabled={pending}>
          {verb} {name}
        </button>
        {/* Not while the request is out: its error would have nowhere to show. */}
        <button type="button" disabled={pending} onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
