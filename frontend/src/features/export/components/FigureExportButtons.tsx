// The export row of every plot: PDF, SVG and PNG at a printed width from the server (report
// style, vector PDF/SVG; every figure is the server's), and optionally its data as CSV.
import { useState } from "react";
import { handleError } from "@/components/common/handleError";
import { downloadText } from "@/lib/download";
import {
  type AnyServerFigure,
  downloadServerFigure,
  FIGURE_FILE_FORMATS,
  FIGURE_WIDTHS,
  type FigureFileFormat,
  type FigureWidth,
} from "@/lib/serverFigure";
import { type SummaryTable, toCsv } from "@/lib/table";

/** Props of FigureExportButtons. */
export interface FigureExportButtonsProps {
  /** Base of the exported file names. */
  filename: string;
  /** The plotted numbers; a CSV button appears when given. */
  table?: SummaryTable;
  /** The figure on the server: files come from there, at the chosen printed width. */
  server: AnyServerFigure;
}

export function FigureExportButtons({ filename, table, server }: FigureExportButtonsProps) {
  const [width, setWidth] = useState<FigureWidth>("column");
  const [busy, setBusy] = useState(false);
  const save = (format: FigureFileFormat) => {
    setBusy(true);
    downloadServerFigure(server, format, width, filename)
      .catch(handleError)
      .finally(() => setBusy(false));
  };
  return (
    <div className="actions" data-testid="figure-exports">
      <label className="hint">
        width
        <select
          name="figure-width"
          value={width}
          onChange={(e) => setWidth(e.target.value as FigureWidth)}
        >
          {FIGURE_WIDTHS.map((w) => (
            <option key={w.value} value={w.value}>
              {w.label}
            </option>
          ))}
        </select>
      </label>
      {FIGURE_FILE_FORMATS.map((f) => (
        <button key={f} type="button" disabled={busy} onClick={() => save(f)}>
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
