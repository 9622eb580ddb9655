// CSV and LaTeX downloads of a results summary table.
import type { ConfigurationResultPublic } from "@/api";
import { useParameterLabels } from "@/features/experiments/hooks/useParameterLabels";
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
  const labels = useParameterLabels();
  return (
    <div className="actions" data-testid="table-exports">
      <button
        type="button"
        onClick={() =>
          downloadText(
            `${slug(name)}.csv`,
            toCsv(summaryTable(rows, factors, units, labels)),
            "text/csv",
          )
        }
      >
        CSV
      </button>
      <button
        type="button"
        onClick={() =>
          downloadText(
            `${slug(name)}.tex`,
            toLatex(rows, factors, units, `Results of ${name}`, labels),
            "application/x-tex",
          )
        }
      >
        LaTeX
      </button>
    </div>
  );
}
