// Factors and levels of aggregated results (the figures themselves are the server's).
import type { ConfigurationResultPublic } from "@/api";
import { formatValue } from "@/lib/format";
import { displayUnit } from "@/lib/labels";

export function factorNames(rows: ConfigurationResultPublic[]): string[] {
  const names = new Set<string>();
  for (const r of rows) for (const k of Object.keys(r.values)) names.add(k);
  return [...names];
}

/** Numeric order for numbers, natural text order otherwise (levels of a factor). */
export function compareLevels(a: unknown, b: unknown): number {
  if (typeof a === "number" && typeof b === "number") return a - b;
  return formatValue(a).localeCompare(formatValue(b), "en", { numeric: true });
}

/** The distinct levels of a factor, numerically ordered. */
export function levelsOf(rows: ConfigurationResultPublic[], factor: string): unknown[] {
  const out: unknown[] = [];
  const seen = new Set<string>();
  for (const r of rows) {
    const v = r.values[factor];
    const key = formatValue(v);
    if (!seen.has(key)) {
      seen.add(key);
      out.push(v);
    }
  }
  return out.sort(compareLevels);
}

/** "virtual clients per thread (clients)": axis titles always carry the unit when there is one. */
export function axisTitle(name: string, unit: string | null | undefined): string {
  const shown = displayUnit(unit);
  return shown ? `${name} (${shown})` : name;
}
