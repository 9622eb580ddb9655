// Fixed parameters, factors, testbed, tool versions and hardware of the compared experiments
// side by side; "only differences" hides the rows on which they agree.
import type { ParametersComparisonPublic } from "@/api";
import { formatLevels, formatValue } from "@/lib/format";

/** Props of ParametersTable. */
export interface ParametersTableProps {
  parameters: ParametersComparisonPublic;
  onlyDifferences: boolean;
  onOnlyDifferences: (on: boolean) => void;
}

function cell(value: unknown, varied: boolean): string {
  if (value === null || value === undefined) return "–";
  if (varied && Array.isArray(value)) return `varied: ${formatLevels(value)}`;
  return formatValue(value);
}

export function ParametersTable({
  parameters,
  onlyDifferences,
  onOnlyDifferences,
}: ParametersTableProps) {
  const rows = onlyDifferences ? parameters.data.filter((r) => r.differs) : parameters.data;
  const hardware = parameters.hardware_differences ?? [];
  return (
    <div className="card" data-testid="parameters-table">
      <div className="section-header">
        <h3>Parameters</h3>
        <label>
          <input
            type="checkbox"
            checked={onlyDifferences}
            onChange={(e) => onOnlyDifferences(e.target.checked)}
          />
          only differences
        </label>
      </div>
      {hardware.length > 0 && (
        // Said above the table: results measured on different machines may differ for that alone.
        <ul className="hint" data-testid="hardware-differences">
          {hardware.map((h) => (
            <li key={h}>{h}</li>
          ))}
        </ul>
      )}
      {rows.length === 0 ? (
        <p className="hint">The experiments agree on every parameter.</p>
      ) : (
        <div className="scroll">
          <table className="table compact">
            <thead>
              <tr>
                <th>group</th>
                <th>parameter</th>
                {parameters.experiments.map((e) => (
                  <th key={e.id}>{e.name}</th>
                ))}
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr
                  key={`${r.group}-${r.name}`}
                  data-testid="parameter-row"
                  data-name={r.name}
                  className={r.differs ? "differs" : undefined}
                >
                  <td className="hint">{r.group}</td>
                  <td title={r.name}>{r.label}</td>
                  {r.values.map((v, i) => (
                    <td key={parameters.experiments[i]?.id ?? i}>
                      {cell(v, r.varied[i] ?? false)}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}
