// The compare page's difference table as the server writes it: CSV (full precision) or a
// booktabs LaTeX table with caption and label, for the page's selection and brush.
import type { DifferencesRequest } from "@/api";
import { authHeaders } from "@/lib/auth";
import { downloadBlob } from "./download";
import { fetchOk } from "./serverFigure";

export type TableFileFormat = "csv" | "tex";

/** POST /compare/tables/differences.{csv,tex} and save the answer as `filename`.{format}. */
export async function downloadDifferencesTable(
  body: DifferencesRequest,
  format: TableFileFormat,
  filename: string,
): Promise<void> {
  const response = await fetchOk(`/api/v1/compare/tables/differences.${format}`, {
    method: "POST",
    headers: { ...authHeaders(), "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  downloadBlob(`${filename}.${format}`, await response.blob());
}
