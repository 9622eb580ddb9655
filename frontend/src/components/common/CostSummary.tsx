// An estimate or accrued cost: the total (or "unknown" with the unpriced sizes), the hourly
// price, and every VM size's price with its date and source.
import { Link } from "react-router";
import type { CostPublic } from "@/api";
import { costLines, formatMoney } from "@/lib/cost";

/** Props of CostSummary. */
export interface CostSummaryProps {
  cost: CostPublic;
  label: string;
  testId: string;
}

export function CostSummary({ cost, label, testId }: CostSummaryProps) {
  return (
    <div data-testid={testId}>
      <p>
        <strong>{label}:</strong> {formatMoney(cost.amount, cost.currency)}
        {cost.per_hour !== null && (
          <span className="hint">
            {" "}
            ({formatMoney(cost.per_hour, cost.currency)}/h over {cost.hours.toFixed(2)} h)
          </span>
        )}
        {cost.unpriced.length > 0 && (
          <span className="hint">
            {" "}
            no price for {cost.unpriced.join(", ")} (<Link to="/prices">set a price</Link>)
          </span>
        )}
      </p>
      <ul className="hint">
        {costLines(cost).map((line) => (
          <li key={line}>{line}</li>
        ))}
      </ul>
      <p className="hint">Counted: {cost.counted}.</p>
    </div>
  );
}
