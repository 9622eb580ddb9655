// A form's draft kept in sessionStorage under one key per form (new / edit N / copy of N): a
// reload, or leaving and coming back in the same tab, finds the form as it was left.
import { useCallback, useEffect, useState } from "react";

const PREFIX = "mcscope.draft.";

function read<T>(key: string): T | undefined {
  try {
    const text = window.sessionStorage.getItem(PREFIX + key);
    return text ? (JSON.parse(text) as T) : undefined;
  } catch {
    return undefined; // a corrupt or foreign entry is no draft
  }
}

/**
 * The form state, seeded from the draft when there is one, else from `initial` once it is known
 * (an experiment being edited arrives after the first render). `clear` forgets the draft.
 */
export function useFormDraft<T>(key: string, initial: T | undefined) {
  const [form, setForm] = useState<T | undefined>(() => read<T>(key) ?? initial);
  const [restored] = useState(() => read<T>(key) !== undefined);
  useEffect(() => {
    if (form === undefined && initial !== undefined) setForm(read<T>(key) ?? initial);
  }, [form, initial, key]);
  const update = useCallback(
    (next: (prev: T) => T) =>
      setForm((prev) => {
        if (prev === undefined) return prev;
        const value = next(prev);
        window.sessionStorage.setItem(PREFIX + key, JSON.stringify(value));
        return value;
      }),
    [key],
  );
  const clear = useCallback(() => window.sessionStorage.removeItem(PREFIX + key), [key]);
  return { form, update, clear, restored } as const;
}
