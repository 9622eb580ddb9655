// Money as the API serves it: every price with its date and source, nothing guessed.
import type { CostPublic, VmPricePublic } from "@/api";

/** 1.234 USD -> "1.23 USD"; null (a VM without a price) -> "unknown". */
export function formatMoney(amount: number | null, currency: string | null): string {
  if (amount === null) return "unknown";
  const digits = amount !== 0 && Math.abs(amount) < 0.1 ? 4 : 2;
  return `${amount.toFixed(digits)} ${currency ?? ""}`.trim();
}

/** "0.1000 USD/h, Retail Prices API, 2026-11-01" */
export function describePrice(p: VmPricePublic): string {
  const source = p.source === "retail-api" ? "Retail Prices API" : "set by hand";
  return `${p.price_per_hour.toFixed(4)} ${p.currency}/h, ${source}, ${p.fetched_at.slice(0, 10)}`;
}

/** One line per VM size: "2 x Standard_A2_v2 (westeurope): 0.1000 USD/h, ..." or "no price". */
export function costLines(cost: CostPublic): string[] {
  return cost.vms.map(
    (v) =>
      `${v.count} x ${v.size} (${v.region}): ${v.price ? describePrice(v.price) : "no price (set one on the Prices page, or refresh)"}`,
  );
}
