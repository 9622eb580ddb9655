// Stacked bars of the response-time breakdown: one bar per configuration, one stack per part.
import type { Data } from "plotly.js";
import type { BreakdownRowPublic } from "@/api";
import { formatValue } from "@/features/experiments/utils/format";

export const PARTS = [
  { key: "queue_us", label: "queue" },
  { key: "server_us", label: "server" },
  { key: "processing_us", label: "processing" },
  { key: "network_us", label: "network" },
] as const;

/** "worker threads=8, clients per thread=1": a configuration's label (raw names without labelOf). */
export function configLabel(
  values: Record<string, unknown>,
  labelOf: (name: string) => string = (n) => n,
): string {
  const parts = Object.entries(values).map(([k, v]) => `${labelOf(k)}=${formatValue(v)}`);
  return parts.length ? parts.join(", ") : "all";
}

export function breakdownTraces(
  rows: BreakdownRowPublic[],
  labelOf?: (name: string) => string,
): Data[] {
  const labels = rows.map((r) => configLabel(r.values, labelOf));
  return PARTS.map((p) => ({
    type: "bar",
    name: p.label,
    x: labels,
    // Milliseconds read better than microseconds at this scale.
    y: rows.map((r) => r[p.key] / 1000),
  }));
}
