// CSV and LaTeX downloads of a results summary table.
import type { ConfigurationResultPublic } from "@/api";
import { downloadText, slug } from "../utils/download";
import { summaryTable, toCsv, toLatex } from "../utils/table";

/** Props of TableExportButtons. */
export interface TableExportButtonsProps {
  name: string;
  rows: ConfigurationResultPublic[];
  factors: string[];
  units: Record<string, string>;
}

export function TableExportButtons({ name, rows, factors, units }: TableExportButtonsProps) {
  return (
    <div className="actions" data-testid="table-exports">
      <button
        type="button"
        onClick={() =>
          downloadText(`${slug(name)}.csv`, toCsv(summaryTable(rows, factors, units)), "text/csv")
        }
      >
        CSV
      </button>
      <button
        type="button"
        onClick={() =>
          downloadText(
            `${slug(name)}.tex`,
            toLatex(rows, factors, units, `Results of ${name}`),
            "application/x-tex",
          )
        }
      >
        LaTeX
      </button>
    </div>
  );
}
