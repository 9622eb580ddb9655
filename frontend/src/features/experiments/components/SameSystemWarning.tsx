// The preview's warning: configurations of the grid that run the same system (e.g.
// replication one and all with 1 server). They are kept; a difference between them is noise.
import type { SameSystemPublic } from "@/api";
import { formatValue } from "@/lib/format";
import { useParameterLabels } from "@/lib/hooks/useParameterLabels";

/** Props of SameSystemWarning. */
export interface SameSystemWarningProps {
  groups: SameSystemPublic[];
}

export function SameSystemWarning({ groups }: SameSystemWarningProps) {
  const labels = useParameterLabels();
  if (groups.length === 0) return null;
  return (
    <div className="warning" data-testid="same-system-warning">
      <p>
        {groups.length === 1 ? "One group" : `${groups.length} groups`} of configurations run the
        same system; they are kept, but a difference measured between them is noise, and a factorial
        reads it as an effect.
      </p>
      <ul>
        {groups.map((g) => (
          <li key={g.points.join(",")} data-testid="same-system-group">
            {g.points.map((p, i) => (
              <span key={p}>
                {i > 0 && " = "}#{p} (
                {Object.entries(g.values[i] ?? {})
                  .map(([k, v]) => `${labels.title(k)} ${formatValue(v)}`)
                  .join(", ")}
                )
              </span>
            ))}
            : {g.reasons.join("; ")}.
          </li>
        ))}
      </ul>
    </div>
  );
}
