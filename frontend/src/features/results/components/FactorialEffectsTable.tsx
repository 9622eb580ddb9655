// The effects of a 2^k r design, each named with its levels (first entered = −1), and the
// factors that have no effect by construction in some configurations.
import type { FactorialPublic } from "@/api";
import { formatNumber } from "@/lib/format";

/** Props of FactorialEffectsTable. */
export interface FactorialEffectsTableProps {
  factorial: FactorialPublic;
}

export function FactorialEffectsTable({ factorial }: FactorialEffectsTableProps) {
  const level = factorial.confidence ? `${Math.round(factorial.confidence * 100)}%` : "";
  const notes = factorial.no_effect ?? [];
  return (
    <div>
      <table className="table compact" data-testid="factorial-effects">
        <thead>
          <tr>
            <th>effect (first level → second)</th>
            <th className="num">q</th>
            <th className="num">variation (%)</th>
            <th className="num">{level} CI</th>
            <th>significant</th>
          </tr>
        </thead>
        <tbody>
          {factorial.effects.map((e) => (
            <tr key={e.name}>
              <td>
                {e.label}
                {e.factors.some((f) => notes.some((n) => n.factor === f)) && (
                  <span className="hint" title="no effect by construction in some configurations">
                    {" "}
                    *
                  </span>
                )}
              </td>
              <td className="num">{formatNumber(e.value, 3)}</td>
              <td className="num">
                {e.factors.length ? formatNumber(e.variation_percent, 2) : ""}
              </td>
              <td className="num">
                {e.ci_low === null || e.ci_high === null
                  ? "–"
                  : `${formatNumber(e.ci_low, 3)} … ${formatNumber(e.ci_high, 3)}`}
              </td>
              <td>{e.significant === null ? "–" : e.significant ? "yes" : "no"}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {notes.map((n) => (
        <p className="hint" key={n.factor} data-testid="factorial-no-effect">
          * {n.text} A measured effect there is noise.
        </p>
      ))}
    </div>
  );
}
