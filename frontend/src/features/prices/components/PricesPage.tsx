// Prices: every stored VM price with its currency, source and date, and a form to set one by
// hand (offline, or a rate the Retail Prices API does not know). Refreshing from the Retail
// Prices API needs the internet and runs from the command line.
import { useEffect, useState } from "react";
import { FieldError } from "@/components/common/FieldError";
import { handleError } from "@/components/common/handleError";
import { PendingBlock } from "@/components/common/PendingBlock";
import { fieldErrors } from "@/lib/apiError";
import { describePrice } from "@/lib/cost";
import { useGetPricesQuery, useSetPriceMutation } from "../hooks/usePrices";

const EMPTY = { region: "westeurope", size: "", price: "", currency: "USD" };

export function PricesPage() {
  const { prices, isLoading, error } = useGetPricesQuery();
  const set = useSetPriceMutation();
  const [form, setForm] = useState(EMPTY);
  const errors = fieldErrors(set.error);
  useEffect(() => {
    if (error) handleError(error);
  }, [error]);
  useEffect(() => {
    if (set.error && Object.keys(fieldErrors(set.error)).length === 0) handleError(set.error);
  }, [set.error]);
  if (isLoading) return <PendingBlock label="Loading prices" />;
  const update = (patch: Partial<typeof EMPTY>) => setForm((f) => ({ ...f, ...patch }));
  return (
    <section data-testid="prices-page">
      <div className="page-header">
        <h1>VM prices</h1>
      </div>
      <p className="hint">
        Estimates, budgets and costs of Azure testbeds use these hourly prices. Refresh them from
        the Azure Retail Prices API (needs the internet) with{" "}
        <code>.venv/bin/python -m backend.cli prices refresh</code>, or set one here.
      </p>
      <section className="card">
        <h2>Stored prices</h2>
        {prices && prices.count > 0 ? (
          <table className="table compact" data-testid="prices-table">
            <thead>
              <tr>
                <th>region</th>
                <th>size</th>
                <th>price</th>
              </tr>
            </thead>
            <tbody>
              {prices.data.map((p) => (
                <tr key={`${p.region}/${p.size}`}>
                  <td>{p.region}</td>
                  <td>{p.size}</td>
                  <td>{describePrice(p)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : (
          <p className="hint">No price is stored: estimates say "no price" for every size.</p>
        )}
      </section>
      <form
        className="card"
        data-testid="set-price"
        onSubmit={(e) => {
          e.preventDefault();
          set.mutate(
            {
              region: form.region.trim(),
              size: form.size.trim(),
              body: { price_per_hour: Number(form.price), currency: form.currency.trim() },
            },
            { onSuccess: () => update({ size: "", price: "" }) },
          );
        }}
      >
        <h2>Set a price</h2>
        <div className="grid-4">
          <label>
            Region
            <input value={form.region} onChange={(e) => update({ region: e.target.value })} />
          </label>
          <label>
            VM size
            <input
              name="size"
              placeholder="Standard_A2_v2"
              value={form.size}
              onChange={(e) => update({ size: e.target.value })}
            />
          </label>
          <label>
            Price per hour
            <input
              name="price"
              inputMode="decimal"
              value={form.price}
              onChange={(e) => update({ price: e.target.value })}
              aria-invalid={Boolean(errors.price_per_hour)}
            />
          </label>
          <label>
            Currency (ISO 4217)
            <input
              name="currency"
              value={form.currency}
              onChange={(e) => update({ currency: e.target.value })}
              aria-invalid={Boolean(errors.currency)}
            />
          </label>
        </div>
        <FieldError message={errors.price_per_hour} testId="error-price" />
        <FieldError message={errors.currency} testId="error-currency" />
        <div className="actions">
          <button type="submit" className="primary" disabled={set.isPending || !form.size}>
            Set price
          </button>
        </div>
      </form>
    </section>
  );
}
