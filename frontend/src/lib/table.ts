// Plotted numbers as a CSV beside a figure (the figure's own lines). Result tables, CSV and
// LaTeX, are written by the server (serverTable.ts).

/** Rows under a header, as a CSV holds them. */
export interface SummaryTable {
  header: string[];
  rows: (string | number | null)[][];
}

function csvCell(value: string | number | null): string {
  if (value === null) return "";
  const s = String(value);
  return /[",\n\r]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
}

/** RFC 4180 CSV; missing values are empty cells, numbers keep full precision. */
export function toCsv(table: SummaryTable): string {
  return [table.header, ...table.rows]
    .map((row) => row.map(csvCell).join(","))
    .join("\r\n")
    .concat("\r\n");
}
