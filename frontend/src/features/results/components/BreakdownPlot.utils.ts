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

/** "workers=8, clients_per_thread=1": the bar's label. */
export function configLabel(values: Record<string, unknown>): string {
  const parts = Object.entries(values).map(([k, v]) => `${k}=${formatValue(v)}`);
  return parts.length ? parts.join(", ") : "all";
}

export function breakdownTraces(rows: BreakdownRowPublic[]): Data[] {
  const labels = rows.map((r) => configLabel(r.values));
  return PARTS.map((p) => ({
    type: "bar",
    name: p.label,
    x: labels,
    // Milliseconds read better than microseconds at this scale.
    y: rows.map((r) => r[p.key] / 1000),
  }));
}
