// Errors from the API client, and the mapping of FastAPI 422 details onto form fields.

/** One item of FastAPI's 422 `detail` list. */
export interface ValidationItem {
  loc: (string | number)[];
  msg: string;
}

/** An HTTP error with its status and parsed body (status 0: the request never got an answer). */
export class ApiError extends Error {
  readonly status: number;
  readonly body: unknown;

  constructor(status: number, body: unknown) {
    super(describeBody(status, body));
    this.name = "ApiError";
    this.status = status;
    this.body = body;
  }
}

function isValidationList(detail: unknown): detail is ValidationItem[] {
  return (
    Array.isArray(detail) &&
    detail.every(
      (d) =>
        typeof d === "object" &&
        d !== null &&
        Array.isArray((d as ValidationItem).loc) &&
        typeof (d as ValidationItem).msg === "string",
    )
  );
}

function detailOf(body: unknown): unknown {
  return typeof body === "object" && body !== null && "detail" in body
    ? (body as { detail: unknown }).detail
    : undefined;
}

function describeBody(status: number, body: unknown): string {
  const detail = detailOf(body);
  if (typeof detail === "string") return detail;
  if (isValidationList(detail)) {
    return detail.map((d) => `${fieldPath(d.loc) || "request"}: ${d.msg}`).join("; ");
  }
  return status === 0 ? "The server could not be reached" : `Request failed (HTTP ${status})`;
}

/** ["body","factors","servers"] -> "factors.servers"; the "body"/"query" prefix is dropped. */
export function fieldPath(loc: (string | number)[]): string {
  const rest = loc[0] === "body" || loc[0] === "query" || loc[0] === "path" ? loc.slice(1) : loc;
  return rest.map(String).join(".");
}

/**
 * Field errors keyed by dotted path. Pydantic prefixes messages with "Value error, ";
 * that is noise next to a field, so it is removed.
 */
export function fieldErrors(error: unknown): Record<string, string> {
  if (!(error instanceof ApiError) || error.status !== 422) return {};
  const detail = detailOf(error.body);
  if (!isValidationList(detail)) return {};
  const out: Record<string, string> = {};
  for (const item of detail) {
    const key = fieldPath(item.loc);
    const msg = item.msg.replace(/^Value error, /, "");
    out[key] = out[key] ? `${out[key]}; ${msg}` : msg;
  }
  return out;
}

/** The error for a field, or for any field below it ("factors" also shows "factors.x"). */
export function errorAt(errors: Record<string, string>, path: string): string | undefined {
  return errors[path];
}

/** React Query's retry: a 4xx is the server's answer (e.g. why an analysis cannot be drawn),
 * shown at once; other failures are tried twice more. */
export function retryUnlessAnswered(count: number, error: Error): boolean {
  return !(error instanceof ApiError && error.status >= 400 && error.status < 500) && count < 2;
}
