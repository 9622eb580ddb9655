// Tables as the server writes them: CSV, and LaTeX with booktabs, units in the headers, a
// caption naming the experiment and its varied factors and a \label, from GET
// /experiments/{id}/tables/{name}.{csv,tex}, and the compare page's difference table (its
// selection and brush in the body) from POST /compare/tables/differences.{csv,tex}. The
// browser never writes a table file itself.
import type { DifferencesRequest } from "@/api/index";
import { authHeaders } from "./auth";
import { downloadBlob } from "./download";
import { downloadFromServer, fetchOk, type ParamValue, withParams } from "./serverFigure";

/** The server's tables (backend/tables/catalog.py). */
export type ServerTableName =
  | "configuration"
  | "summary"
  | "factorial"
  | "differences"
  | "model-comparison"
  | "queue-models";
export type TableFileFormat = "csv" | "tex";
export const TABLE_FILE_FORMATS: readonly { value: TableFileFormat; label: string }[] = [
  { value: "csv", label: "CSV" },
  { value: "tex", label: "LaTeX" },
];

/** A table of an experiment with the page's selection (source, request type, window...). */
export interface ServerTable {
  experimentId: number;
  name: ServerTableName;
  params: Record<string, ParamValue>;
}

export function tableUrl(table: ServerTable, format: TableFileFormat): string {
  const path = `/api/v1/experiments/${table.experimentId}/tables/${table.name}.${format}`;
  return withParams(path, table.params);
}

/** Fetch the server's file and save it as `<filename>.<format>`. */
export function downloadServerTable(
  table: ServerTable,
  format: TableFileFormat,
  filename: string,
): Promise<void> {
  return downloadFromServer(tableUrl(table, format), `${filename}.${format}`);
}

/** The printed width of the LaTeX difference table: one column (3.5 in), or a table* over
 * both columns of a two-column paper with every number. */
export type TableWidth = "column" | "page";

/** POST /compare/tables/differences.{csv,tex} and save the answer as `<filename>.<format>`. */
export async function downloadDifferencesTable(
  body: DifferencesRequest,
  format: TableFileFormat,
  filename: string,
  width: TableWidth = "column",
): Promise<void> {
  const path = `/api/v1/compare/tables/differences.${format}`;
  const url = width === "column" ? path : withParams(path, { width });
  const response = await fetchOk(url, {
    method: "POST",
    headers: { ...authHeaders(), "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  downloadBlob(`${filename}.${format}`, await response.blob());
}
