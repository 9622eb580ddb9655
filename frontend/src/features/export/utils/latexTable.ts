// Any table as a LaTeX booktabs table: units in the headers, a caption and a \label.
import { escapeLatex } from "./table";

/** A column: its header, unit (printed in parentheses) and alignment. */
export interface LatexColumn {
  header: string;
  unit?: string;
  align: "l" | "r" | "c";
}

/** A cell: text (escaped) or LaTeX written by the caller (kept as is). */
export type LatexCell = string | { latex: string };

export interface LatexTableSpec {
  columns: LatexColumn[];
  rows: LatexCell[][];
  caption: string;
  label: string;
}

function cell(c: LatexCell): string {
  return typeof c === "string" ? escapeLatex(c) : c.latex;
}

function header(c: LatexColumn): string {
  return c.unit ? `${escapeLatex(c.header)} (${escapeLatex(c.unit)})` : escapeLatex(c.header);
}

/** A table float needing \usepackage{booktabs}; the label is made safe for \ref. */
export function latexTable(spec: LatexTableSpec): string {
  const label = spec.label.replace(/[^A-Za-z0-9:._-]+/g, "-");
  return [
    "\\begin{table}[ht]",
    "\\centering",
    `\\caption{${escapeLatex(spec.caption)}}`,
    `\\label{${label}}`,
    `\\begin{tabular}{${spec.columns.map((c) => c.align).join("")}}`,
    "\\toprule",
    `${spec.columns.map(header).join(" & ")} \\\\`,
    "\\midrule",
    ...spec.rows.map((r) => `${r.map(cell).join(" & ")} \\\\`),
    "\\bottomrule",
    "\\end{tabular}",
    "\\end{table}",
    "",
  ].join("\n");
}
