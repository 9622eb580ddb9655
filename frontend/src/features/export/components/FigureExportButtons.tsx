// PNG, SVG and PDF of a drawn figure, and optionally its data as CSV: the export row of every plot.
import type { RefObject } from "react";
import { handleError } from "@/components/common/handleError";
import { downloadFigure, FIGURE_FORMATS, type FigureFormat } from "@/components/common/LazyPlot";
import { downloadText } from "../utils/download";
import { type SummaryTable, toCsv } from "../utils/table";

/** Props of FigureExportButtons. */
export interface FigureExportButtonsProps {
  /** The graph div LazyPlot hands over once drawn (null before). */
  graphDiv: RefObject<HTMLElement | null>;
  /** Base of the exported file names. */
  filename: string;
  /** The plotted numbers; a CSV button appears when given. */
  table?: SummaryTable;
}

export function FigureExportButtons({ graphDiv, filename, table }: FigureExportButtonsProps) {
  const save = (format: FigureFormat) => {
    if (!graphDiv.current) return;
    downloadFigure(graphDiv.current, format, filename).catch(handleError);
  };
  return (
    <div className="actions">
      {FIGURE_FORMATS.map((f) => (
        <button key={f} type="button" onClick={() => save(f)}>
          {f.toUpperCase()}
        </button>
      ))}
      {table && (
        <button
          type="button"
          onClick={() => downloadText(`${filename}.csv`, toCsv(table), "text/csv")}
        >
          CSV
        </button>
      )}
    </div>
  );
}
