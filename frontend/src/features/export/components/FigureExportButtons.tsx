// The export row of every plot: PDF, SVG and PNG at a printed width from the server when the
// figure is one of the server's (report style, vector PDF/SVG), else PNG and SVG of the figure
// as drawn; and optionally its data as CSV.
import { type RefObject, useState } from "react";
import { handleError } from "@/components/common/handleError";
import { downloadFigure, FIGURE_FORMATS, type FigureFormat } from "@/components/common/LazyPlot";
import { downloadText } from "../utils/download";
import {
  type AnyServerFigure,
  downloadServerFigure,
  FIGURE_FILE_FORMATS,
  FIGURE_WIDTHS,
  type FigureFileFormat,
  type FigureWidth,
} from "../utils/serverFigure";
import { type SummaryTable, toCsv } from "../utils/table";

/** Props of FigureExportButtons. */
export interface FigureExportButtonsProps {
  /** The graph div LazyPlot hands over once drawn (null before). */
  graphDiv: RefObject<HTMLElement | null>;
  /** Base of the exported file names. */
  filename: string;
  /** The plotted numbers; a CSV button appears when given. */
  table?: SummaryTable;
  /** The same figure on the server: files come from there, at the chosen printed width. */
  server?: AnyServerFigure;
}

export function FigureExportButtons({
  graphDiv,
  filename,
  table,
  server,
}: FigureExportButtonsProps) {
  const [width, setWidth] = useState<FigureWidth>("column");
  const [busy, setBusy] = useState(false);
  const saveDrawn = (format: FigureFormat) => {
    if (!graphDiv.current) return;
    downloadFigure(graphDiv.current, format, filename).catch(handleError);
  };
  const saveServer = (figure: AnyServerFigure, format: FigureFileFormat) => {
    setBusy(true);
    downloadServerFigure(figure, format, width, filename)
      .catch(handleError)
      .finally(() => setBusy(false));
  };
  return (
    <div className="actions" data-testid="figure-exports">
      {server ? (
        <>
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
            <button key={f} type="button" disabled={busy} onClick={() => saveServer(server, f)}>
              {f.toUpperCase()}
            </button>
          ))}
        </>
      ) : (
        FIGURE_FORMATS.map((f) => (
          <button key={f} type="button" onClick={() => saveDrawn(f)}>
            {f.toUpperCase()}
          </button>
        ))
      )}
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
