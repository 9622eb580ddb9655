// The report's figures and tables in order, each with caption and explanation, move and remove.
import type { ReportItem } from "@/api";
import { itemTitle, moveItem, type ReportChoice, removeItem, updateItem } from "../utils/items";
import { ReportItemPreview } from "./ReportItemPreview";

/** Props of ReportItemList. */
export interface ReportItemListProps {
  items: ReportItem[];
  choices: ReportChoice[];
  onChange: (items: ReportItem[]) => void;
  /** The experiment whose figures the items draw. */
  experimentId: number;
}

export function ReportItemList({ items, choices, onChange, experimentId }: ReportItemListProps) {
  if (items.length === 0) return <p className="hint">No figures or tables in the report.</p>;
  return (
    <ol className="report-items" data-testid="report-items">
      {items.map((item, i) => {
        const title = itemTitle(item, choices);
        return (
          // Index keys: one figure may be in the report twice, as two views.
          // biome-ignore lint/suspicious/noArrayIndexKey: items have no id; order is their identity
          <li key={i} className="report-item" data-testid="report-item">
            <div className="actions">
              <strong>
                {item.kind === "figure" ? "Figure" : "Table"}: {title}
              </strong>
              <button
                type="button"
                aria-label={`Move ${title} up`}
                disabled={i === 0}
                onClick={() => onChange(moveItem(items, i, -1))}
              >
                ↑
              </button>
              <button
                type="button"
                aria-label={`Move ${title} down`}
                disabled={i === items.length - 1}
                onClick={() => onChange(moveItem(items, i, 1))}
              >
                ↓
              </button>
              <button
                type="button"
                aria-label={`Remove ${title}`}
                onClick={() => onChange(removeItem(items, i))}
              >
                Remove
              </button>
            </div>
            <ReportItemPreview item={item} experimentId={experimentId} />
            <label className="report-field">
              Caption
              <input
                name="caption"
                placeholder="the generated caption"
                value={item.caption ?? ""}
                onChange={(e) =>
                  onChange(updateItem(items, i, { caption: e.target.value || null }))
                }
              />
            </label>
            <label className="report-field">
              Explanation
              <textarea
                name="explanation"
                rows={2}
                value={item.explanation ?? ""}
                onChange={(e) => onChange(updateItem(items, i, { explanation: e.target.value }))}
              />
            </label>
          </li>
        );
      })}
    </ol>
  );
}
