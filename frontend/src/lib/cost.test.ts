import { describe, expect, it } from "vitest";
import type { CostPublic } from "@/api";
import { costLines, formatMoney } from "./cost";

const cost: CostPublic = {
  vms: [
    {
      region: "westeurope",
      size: "Standard_A2_v2",
      count: 2,
      price: {
        region: "westeurope",
        size: "Standard_A2_v2",
        price_per_hour: 0.1,
        currency: "USD",
        source: "retail-api",
        fetched_at: "2026-11-01T09:30:00Z",
      },
    },
    { region: "westeurope", size: "Standard_F2s_v2", count: 1, price: null },
  ],
  hours: 2,
  per_hour: null,
  amount: null,
  currency: "USD",
  unpriced: ["westeurope/Standard_F2s_v2"],
  counted: "all VMs",
};

describe("cost", () => {
  it("shows each price with its date and source, and an unpriced size as such", () => {
    expect(costLines(cost)).toEqual([
      "2 x Standard_A2_v2 (westeurope): 0.1000 USD/h, Retail Prices API, 2026-11-01",
      "1 x Standard_F2s_v2 (westeurope): no price (set one on the Prices page, or refresh)",
    ]);
  });
  it("never writes a number for an unknown total", () => {
    expect(formatMoney(null, "USD")).toBe("unknown");
    expect(formatMoney(1.234, "USD")).toBe("1.23 USD");
    expect(formatMoney(0.0123, "USD")).toBe("0.0123 USD");
  });
});
