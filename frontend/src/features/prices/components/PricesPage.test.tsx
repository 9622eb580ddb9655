import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { PricesService, type VmPricePublic } from "@/api";
import { TestQueries } from "@/test/api";
import { PricesPage } from "./PricesPage";

const stored: VmPricePublic = {
  region: "westeurope",
  size: "Standard_A2_v2",
  price_per_hour: 0.0912,
  currency: "EUR",
  source: "user",
  fetched_at: "2026-11-28T10:00:00Z",
};

function show() {
  render(
    <TestQueries>
      <PricesPage />
    </TestQueries>,
  );
}

describe("PricesPage", () => {
  afterEach(() => {
    cleanup();
    vi.restoreAllMocks();
  });

  it("lists stored prices with currency, source and date, and sets one", async () => {
    vi.spyOn(PricesService, "readPrices").mockResolvedValue({
      data: { data: [stored], count: 1 },
    } as never);
    const put = vi
      .spyOn(PricesService, "putPrice")
      .mockResolvedValue({ data: { ...stored, size: "Standard_A4_v2" } } as never);
    show();
    const table = await screen.findByTestId("prices-table");
    expect(table.textContent).toContain("0.0912 EUR/h, set by hand, 2026-11-28");
    fireEvent.change(screen.getByRole("textbox", { name: "VM size" }), {
      target: { value: "Standard_A4_v2" },
    });
    fireEvent.change(screen.getByRole("textbox", { name: "Price per hour" }), {
      target: { value: "0.2" },
    });
    fireEvent.click(screen.getByRole("button", { name: "Set price" }));
    await waitFor(() => expect(put).toHaveBeenCalledTimes(1));
    expect(put.mock.calls[0]?.[0]).toMatchObject({
      path: { region: "westeurope", size: "Standard_A4_v2" },
      body: { price_per_hour: 0.2, currency: "USD" },
    });
  });
});
