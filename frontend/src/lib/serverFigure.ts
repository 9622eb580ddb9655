// Figures as the server draws them: PDF, SVG and PNG at a printed width (the report style),
// from GET /experiments/{id}/figures/{name}.{format}, or for the compare page (a selection
// with brushing) POST /compare/figures/{name}.{format}, or for a calculator of the Models page
// (no experiment) POST /analysis/figures/{name}.{format}. The browser never builds a figure.
import type { CompareFigureRequest, MvaFigureRequest } from "@/api/index";
import { ApiError } from "./apiError";
import { authHeaders, redirectToLogin } from "./auth";
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

/** A figure of the compare page: its selection, brushing and options travel in the body. */
export interface CompareFigure {
  name: string;
  body: CompareFigureRequest;
}

/** A figure of a Models page calculator: the inputs as its solve endpoint takes them. */
export interface CalculatorFigure {
  calculator: "mva-calculator";
  body: MvaFigureRequest;
}

/** Any kind of server figure. */
export type AnyServerFigure = ServerFigure | CompareFigure | CalculatorFigure;

/** A figure whose selection travels in a POST body. */
export type PostedFigure = CompareFigure | CalculatorFigure;

function isPostedFigure(figure: AnyServerFigure): figure is PostedFigure {
  return "body" in figure;
}

/** The path of a posted figure in a format, without the body. */
function postedFigurePath(figure: PostedFigure, format: FigureFileFormat | "json"): string {
  return "calculator" in figure
    ? `/api/v1/analysis/figures/${figure.calculator}.${format}`
    : `/api/v1/compare/figures/${figure.name}.${format}`;
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

/** The request of a figure in a format, with `extra` options (width, style) merged in. */
export function figureRequest(
  figure: AnyServerFigure,
  format: FigureFileFormat | "json",
  extra: Partial<Pick<CompareFigureRequest, "width" | "style">> = {},
): { url: string; init: RequestInit } {
  if (!isPostedFigure(figure))
    return { url: figureUrl(figure, format, extra), init: { headers: authHeaders() } };
  return {
    url: postedFigurePath(figure, format),
    init: {
      method: "POST",
      headers: { ...authHeaders(), "Content-Type": "application/json" },
      body: JSON.stringify({ ...figure.body, ...extra }),
    },
  };
}

/** One text per figure and selection (Plotly's uirevision: redraws of it keep the zoom). */
export function figureRevision(figure: AnyServerFigure): string {
  return isPostedFigure(figure)
    ? JSON.stringify([postedFigurePath(figure, "json"), figure.body])
    : figureUrl(figure, "json");
}

/** The server's answer for a figure; an error answer is thrown as ApiError. */
export async function fetchServerFigure(
  figure: AnyServerFigure,
  format: FigureFileFormat | "json",
  extra: Partial<Pick<CompareFigureRequest, "width" | "style">> = {},
): Promise<Response> {
  const { url, init } = figureRequest(figure, format, extra);
  return fetchOk(url, init);
}

/** fetch, with the login page on 401 and any other error answer thrown as ApiError. */
export async function fetchOk(url: string, init: RequestInit): Promise<Response> {
  const response = await fetch(url, init);
  if (response.status === 401) redirectToLogin();
  if (!response.ok) {
    const body: unknown = await response.json().catch(() => ({}));
    throw new ApiError(response.status, body);
  }
  return response;
}

/** Fetch the rendered file and save it; an error answer is thrown, not saved. */
export async function downloadServerFigure(
  figure: AnyServerFigure,
  format: FigureFileFormat,
  width: FigureWidth,
  filename: string,
): Promise<void> {
  const response = await fetchServerFigure(figure, format, { width });
  downloadBlob(`${filename}.${format}`, await response.blob());
}

/** Fetch a file the server renders and save it; an error answer is thrown as ApiError. */
export async function downloadFromServer(url: string, filename: string): Promise<void> {
  const response = await fetchOk(url, { headers: authHeaders() });
  downloadBlob(filename, await response.blob());
}
