// In place of a view that cannot be drawn: what it is and the API's own reason (a 4xx's
// detail, e.g. "every cell needs the same number of repetitions, found [3, 4]"), never a
// guess at the cause and never an empty space.
import type { ReactNode } from "react";

/** Props of Unavailable. */
export interface UnavailableProps {
  /** The view, e.g. "The factorial analysis". */
  what: ReactNode;
  /** What the query threw: its message is the server's reason. */
  error: unknown;
  /** What usually helps, after the reason. */
  hint?: ReactNode;
  testId?: string;
}

/** The reason an error carries (an ApiError's message is the response's detail). */
export function reasonOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export function Unavailable({ what, error, hint, testId }: UnavailableProps) {
  return (
    <p className="hint" data-testid={testId ?? "view-unavailable"}>
      {what} cannot be drawn: <span data-testid="unavailable-reason">{reasonOf(error)}</span>
      {hint && <> {hint}</>}
    </p>
  );
}
