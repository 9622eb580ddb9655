// A model's scalar outputs as a two-column table with units.
import type { Quantity } from "../utils/quantities";

/** Props of QuantityTable. */
export interface QuantityTableProps {
  rows: Quantity[];
  testId?: string;
}

export function QuantityTable({ rows, testId }: QuantityTableProps) {
  return (
    <table className="table compact" data-testid={testId}>
      <tbody>
        {rows.map((q) => (
          <tr key={q.label}>
            <th>{q.label}</th>
            <td className="num" data-quantity={q.label}>
              {q.value}
            </td>
            <td>{q.unit}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
