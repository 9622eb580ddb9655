// The per-run values a user types ("servers=3, workers=16") as the mapping's parameter values.

/** A typed value: an integer, true/false, else the text (the server checks it). */
export function typedValue(text: string): string | number | boolean {
  if (/^-?\d+$/.test(text)) return Number(text);
  if (text === "true" || text === "false") return text === "true";
  return text;
}

/** "a=1, b=x" -> {a: 1, b: "x"}; a piece without "=" is an error naming it. */
export function parseValues(text: string): { values: Record<string, unknown>; error?: string } {
  const values: Record<string, unknown> = {};
  for (const piece of text.split(",")) {
    const part = piece.trim();
    if (!part) continue;
    const at = part.indexOf("=");
    if (at <= 0) return { values, error: `"${part}": expected parameter=value` };
    values[part.slice(0, at).trim()] = typedValue(part.slice(at + 1).trim());
  }
  return { values };
}

/** {a: 1, b: "x"} -> "a=1, b=x" (the inverse of parseValues for what it produces). */
export function formatValues(values: Record<string, unknown>): string {
  return Object.entries(values)
    .map(([k, v]) => `${k}=${String(v)}`)
    .join(", ");
}
