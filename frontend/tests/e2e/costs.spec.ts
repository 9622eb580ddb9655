// End-to-end: money on an Azure testbed. Prices (one per size, dated, from the Retail Prices
// API) and a lab made two hours ago with a budget are seeded; the Testbeds page shows the cost
// so far with each price's date and source, and the budget left; the design page's preview of
// an experiment on that testbed shows its estimated cost. A size without a price says so.
import { execFileSync } from "node:child_process";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ExperimentPublic, TestbedsPublic, VmPricePublic } from "@/api";
import { api, BASE_URL, launch, screenshot } from "./browser";

let browser: Browser;
let page: Page;
let testbedId: number;
const name = `az-${Date.now()}`;

function sql(statement: string): void {
  const db = process.env.E2E_DATABASE ?? "";
  execFileSync("psql", ["-h", "127.0.0.1", "-U", "postgres", "-d", db, "-q", "-c", statement]);
}

async function setPrice(size: string, price: number): Promise<void> {
  await api<VmPricePublic>(`/prices/westeurope/${size}`, {
    method: "PUT",
    body: JSON.stringify({ price_per_hour: price }),
  });
}

beforeAll(async () => {
  await setPrice("Standard_A1_v2", 0.05);
  await setPrice("Standard_A2_v2", 0.1);
  sql(
    `WITH tb AS (INSERT INTO testbeds (name, kind, description)
       VALUES ('${name}', 'azure', 'money') RETURNING id),
     h AS (INSERT INTO hosts (testbed_id, name, role, address, ssh_user, ssh_port, key_path,
                              size, region)
       SELECT id, '${name}-server-1', 'server'::host_role, '10.42.1.5', 'mcscope', 22, '/k/id',
              'Standard_A1_v2', 'westeurope' FROM tb
       UNION ALL
       SELECT id, '${name}-client-1', 'client'::host_role, '10.42.1.6', 'mcscope', 22, '/k/id',
              'Standard_A2_v2', 'westeurope' FROM tb
       RETURNING 1)
     INSERT INTO azure_labs (name, spec, status, progress, resource_group, testbed_id, budget,
                             created_at)
     SELECT '${name}', '{"region": "westeurope", "jump_host": {"enabled": true,
             "size": "Standard_B2s"}}', 'ready', '[]', 'mcscope-${name}', id, 5,
            now() - interval '2 hours' FROM tb`,
  );
  const testbeds = await api<TestbedsPublic>("/testbeds");
  testbedId = testbeds.data.find((t) => t.name === name)?.id ?? 0;
  browser = await launch();
  page = await browser.newPage({ viewport: { width: 1360, height: 900 } });
});

afterAll(async () => {
  await browser?.close();
});

describe("money on an Azure testbed", () => {
  it("shows the cost so far, each price's date and source, and the unpriced jump host", async () => {
    await page.goto(`${BASE_URL}/testbeds`);
    const cost = page.getByTestId(`cost-${testbedId}`);
    await cost.waitFor();
    const text = (await cost.textContent()) ?? "";
    const today = new Date().toISOString().slice(0, 10);
    expect(text).toContain("Cost so far: unknown");
    expect(text).toContain("no price for westeurope/Standard_B2s");
    expect(text).toContain(`1 x Standard_A2_v2 (westeurope): 0.1000 USD/h, set by hand, ${today}`);
    expect(text).toContain("1 x Standard_B2s (westeurope): no price");
    expect(await page.getByTestId(`budget-${testbedId}`).textContent()).toContain(
      "remaining unknown",
    );
    await screenshot(page, "testbeds-cost-unpriced");

    await setPrice("Standard_B2s", 0.04);
    await page.reload();
    await cost.waitFor();
    // 2 h at 0.19/h: 0.38 of a budget of 5.
    expect(await cost.textContent()).toContain("Cost so far: 0.38 USD");
    expect(await page.getByTestId(`budget-${testbedId}`).textContent()).toContain(
      "Budget 5.00 USD, remaining 4.62 USD",
    );
    await screenshot(page, "testbeds-cost");
  });

  it("shows an experiment's estimated cost in the design preview", async () => {
    const exp = await api<ExperimentPublic>("/experiments", {
      method: "POST",
      body: JSON.stringify({
        name: `cost-${Date.now()}`,
        factors: { workers: [8, 16] },
        repetitions: 3,
        run_time_s: 60,
        testbed_id: testbedId,
      }),
    });
    const estimate = exp.preview.cost?.amount ?? 0;
    expect(estimate).toBeCloseTo((0.19 * exp.preview.estimated_seconds) / 3600);
    await page.goto(`${BASE_URL}/experiments/${exp.id}`);
    await page.getByRole("link", { name: "Edit design" }).click();
    const preview = page.getByTestId("preview-cost");
    await preview.waitFor();
    expect(await preview.textContent()).toContain(`Estimated cost: ${estimate.toFixed(4)} USD`);
    await screenshot(page, "design-preview-cost");
  });
});
