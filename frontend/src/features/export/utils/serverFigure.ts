// Figures as the server draws them: PDF, SVG and PNG at a printed width (the report style),
// from GET /experiments/{id}/figures/{name}.{format}. The browser never builds a PDF itself.
import { ApiError } from "@/lib/apiError";
import { authHeaders, redirectToLogin } from "@/lib/auth";
import { downloadBlob } from "./download";

export type FigureFileFormat = "pdf" | "svg" | "png";
export const FIGURE_FILE_FORMATS: readonly FigureFileFormat[] = ["pdf", "svg", "png"];

/** The server's width presets: one column (3.5 in) or the text width (7.16 in). */
export type FigureWidth = "column" | "page";
export const FIGURE_WIDTHS: readonly { value: FigureWidth; label: string }[] = [
  { value: "column", label: "column (3.5 in)" },
  { value: "page", label: "page (7.16 in)" },
];

export type ParamValue = string | number | boolean | null | undefined | readonly string[];

/** A figure of an experiment with the page's selection (source, x, series, pin, window...). */
export interface ServerFigure {
  experimentId: number;
  name: string;
  params: Record<string, ParamValue>;
}

/** A path with the page's selection: lists repeat their key (pin=a=1&pin=b=2), empty values
 * are left out. Figure and table URLs are both built here. */
export function withParams(path: string, params: Record<string, ParamValue>): string {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value === null || value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) query.append(key, String(v));
  }
  const qs = query.toString();
  return qs ? `${path}?${qs}` : path;
}

/** The figure's URL with its selection (and extra parameters: format, width, style). */
export function figureUrl(
  figure: ServerFigure,
  format: FigureFileFormat | "json",
  extra: Record<string, ParamValue> = {},
): string {
  const path = `/api/v1/experiments/${figure.experimentId}/figures/${figure.name}.${format}`;
  return withParams(path, { ...figure.params, ...extra });
}

/** Pinned factors as the API's repeated `pin=factor=level`. */
export function pinParams(filters: Record<string, string>): string[] {
  return Object.entries(filters).map(([f, level]) => `${f}=${level}`);
}

/** Fetch the rendered file and save it; an error answer is thrown as ApiError, not saved. */
export async function downloadServerFigure(
  figure: ServerFigure,
  format: FigureFileFormat,
  width: FigureWidth,
  filename: string,
): Promise<void> {
  await downloadFromServer(figureUrl(figure, format, { width }), `${filename}.${format}`);
}

/** Fetch a file the server renders and save it; an error answer is thrown as ApiError. */
export async function downloadFromServer(url: string, filename: string): Promise<void> {
  const response = await fetch(url, { headers: authHeaders() });
  if (response.status === 401) redirectToLogin();
  if (!response.ok) {
    const body: unknown = await response.json().catch(() => ({}));
    throw new ApiError(response.status, body);
  }
  downloadBlob(filename, await response.blob());
}
