// How a measured number fits its model, beside the number: the server's verdict (one
// definition, backend/analysis/model_fit.py) as a badge, and each flag's message in words.
import type { FitPublic } from "@/api";

/** Props of FitWarning. */
export interface FitWarningProps {
  /** The fit of the number it stands beside; nothing is shown when it fits or is absent. */
  fit: FitPublic | null | undefined;
}

/** A badge beside a measurement that does not fit its model: the verdict's short label, the
 * full message (numbers and tolerance) on hover; FitMessages lists the messages in words. */
export function FitWarning({ fit }: FitWarningProps) {
  if (!fit || fit.verdict === "fits") return null;
  return (
    <span
      className={`fit-warning ${fit.verdict}`}
      data-testid="fit-warning"
      title={fit.message ?? undefined}
    >
      ⚠ {fit.label}
    </span>
  );
}

/** Props of FitMessages. */
export interface FitMessagesProps {
  fits: (FitPublic | null | undefined)[];
}

/** Every flagged fit's message as a list (under the table holding the badges). */
export function FitMessages({ fits }: FitMessagesProps) {
  const messages = [
    ...new Set(fits.flatMap((f) => (f && f.verdict !== "fits" && f.message ? [f.message] : []))),
  ];
  if (messages.length === 0) return null;
  return (
    <ul className="warnings" data-testid="fit-messages">
      {messages.map((m) => (
        <li key={m} className="warning">
          {m}
        </li>
      ))}
    </ul>
  );
}
