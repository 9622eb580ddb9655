// End-to-end: an Azure testbed created from the Testbeds page against the fake Azure Resource
// Manager (scripts/e2e.sh starts it, its VMs real network-namespace hosts, and a Celery worker
// pointed at it by the MCSCOPE_AZURE_* settings). The page shows the plan before anything is
// made (resources, quota against the region's limit, the price per hour and up to the expiry
// with each price's date and source, "no price" for a size without one), refuses to create
// past the quota, then shows the creation resource by resource, the hosts with their roles,
// the expiry countdown and the cost so far; Stop and Start deallocate and start the VMs, and
// Delete wants the testbed's name typed.
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { VmPricePublic } from "@/api";
import { api, BASE_URL, launch, screenshot } from "./browser";
import { type CeleryWorker, startCeleryWorker } from "./celery";

const NETWORK = process.env.E2E_AZURE_NETWORK ?? "";
const WORKER_LOG = process.env.E2E_AZURE_WORKER_LOG ?? "";
const name = `aze2e${Date.now().toString(36)}`;
const today = new Date().toISOString().slice(0, 10);

let browser: Browser;
let page: Page;
let worker: CeleryWorker | undefined;

async function setPrice(size: string, price: number): Promise<void> {
  await api<VmPricePublic>(`/prices/westeurope/${size}`, {
    method: "PUT",
    body: JSON.stringify({ price_per_hour: price }),
  });
}

function workerLog(): string {
  return worker?.log() ?? "";
}

/** A Celery worker on this run's maintenance queue, with e2e.sh's settings (the fake's). Lab
 * creation, stop, start and delete go to the azure queue (backend/core/queue.py). */
async function startWorker(): Promise<void> {
  worker = await startCeleryWorker(["maintenance", "azure"], "azure", WORKER_LOG);
}

async function role(key: "servers" | "middlewares" | "clients", count: number, size: string) {
  await page.locator(`input[name="${key}-count"]`).fill(String(count));
  await page.locator(`input[name="${key}-size"]`).fill(size);
}

async function showPlan(): Promise<string> {
  await page.getByRole("button", { name: "Show plan" }).click();
  await page.getByRole("button", { name: "Show plan" }).waitFor(); // not "Planning…"
  const plan = page.getByTestId("azure-plan");
  await plan.waitFor();
  return (await plan.textContent()) ?? "";
}

beforeAll(async () => {
  if (!NETWORK) throw new Error("the fake Azure is not running: see scripts/e2e.sh's output");
  await startWorker();
  await setPrice("Standard_A1_v2", 0.05);
  await setPrice("Standard_A2_v2", 0.1);
  browser = await launch();
  page = await browser.newPage({ viewport: { width: 1360, height: 900 } });
});

afterAll(async () => {
  await browser?.close();
  await worker?.stop();
});

describe("an Azure testbed from the Testbeds page", () => {
  it("plans, refuses past the quota, creates, stops, starts and deletes", async () => {
    await page.goto(`${BASE_URL}/testbeds`);
    await page.getByRole("button", { name: "New Azure testbed" }).click();
    const form = page.getByTestId("new-azure-testbed");
    await form.waitFor();
    // The reports' template is the first: 3 servers, 1 middleware, 3 clients.
    expect(await page.locator('input[name="servers-count"]').inputValue()).toBe("3");
    expect(await page.locator('input[name="middlewares-size"]').inputValue()).toBe(
      "Standard_A8_v2",
    );
    expect(await page.locator('input[name="expires_in_hours"]').inputValue()).toBe("4");
    await page.locator('input[name="name"]').fill(name);
    await page.locator('input[name="ssh_source_cidr"]').fill("203.0.113.0/24");
    await page.locator('input[name="subnet_prefix"]').fill(NETWORK);
    expect(await page.getByRole("button", { name: "Create" }).isDisabled()).toBe(true);

    // The reports' testbed: 20 resources, a size without a price makes the total unknown.
    let text = await showPlan();
    expect(text).toContain("(no zone: regional)");
    await expect
      .poll(() => page.getByTestId("azure-plan-resources").locator("tbody tr").count())
      .toBe(20);
    expect(text).toContain(`virtual machine${name}-middleware-1`);
    const perHour = (await page.getByTestId("azure-plan-per-hour").textContent()) ?? "";
    expect(perHour).toContain("Per hour: unknown");
    expect(perHour).toContain("no price for westeurope/Standard_A8_v2");
    expect(perHour).toContain(
      `3 x Standard_A2_v2 (westeurope): 0.1000 USD/h, set by hand, ${today}`,
    );
    // 3 x 1 + 8 + 3 x 2 Av2 vCPUs against the fake's limit of 100.
    const quota = (await page.getByTestId("azure-plan-quota").textContent()) ?? "";
    expect(quota).toContain("standardAv2Family170100yes");
    await screenshot(page, "azure-plan-reports");

    // Past the quota: the error names the family and the numbers, and Create stays off.
    await role("servers", 8, "Standard_A8_v2");
    await role("clients", 8, "Standard_A8_v2");
    await showPlan();
    const quotaError = page.getByTestId("azure-plan-quota-error");
    expect(await quotaError.textContent()).toContain(
      "not enough vCPU quota in westeurope: cores: needs 138 vCPUs, 0 of 100 in use (100 free); " +
        "standardAv2Family: needs 136 vCPUs, 0 of 100 in use (100 free)",
    );
    expect(await page.getByRole("button", { name: "Create" }).isDisabled()).toBe(true);
    await screenshot(page, "azure-plan-quota");

    // One of each, every size priced, no jump host: 9 resources at 0.25 USD/h, 1.00 to 4 h.
    // Editing a count made the topology a custom one.
    expect(await page.getByLabel("Custom counts").isChecked()).toBe(true);
    await role("servers", 1, "Standard_A1_v2");
    await role("middlewares", 1, "Standard_A2_v2");
    await role("clients", 1, "Standard_A2_v2");
    await page.locator('input[name="jump_host"]').uncheck();
    await page.locator('input[name="budget"]').fill("5");
    // In availability zone 2: the plan says so (every VM is created in it).
    await page.locator('select[name="zone"]').selectOption("2");
    text = await showPlan();
    expect(text).toContain("availability zone 2");
    await expect
      .poll(() => page.getByTestId("azure-plan-resources").locator("tbody tr").count())
      .toBe(9);
    expect(await page.getByTestId("azure-plan-per-hour").textContent()).toContain(
      "Per hour: 0.25 USD",
    );
    expect(await page.getByTestId("azure-plan-until-expiry").textContent()).toContain(
      "Up to the expiry (4 h): 1.00 USD",
    );
    expect(await page.getByTestId("azure-plan-budget").textContent()).toBe("Budget 5.00 USD.");
    await screenshot(page, "azure-plan-priced");

    await page.getByRole("button", { name: "Create" }).click();
    const lab = page.getByTestId(`azure-lab-${name}`);
    await lab.waitFor();
    // Resource by resource: caught between the first and the last (each takes a poll).
    await expect
      .poll(async () => (await lab.getByText(/of 9 resources created/).textContent()) ?? "", {
        timeout: 60_000,
        message: workerLog(),
      })
      .toMatch(/^[1-8] of 9 resources created/);
    expect(await lab.locator('li[data-state="created"]').count()).toBeGreaterThan(0);
    expect(await lab.locator('li[data-state="pending"]').count()).toBeGreaterThan(0);
    await screenshot(page, "azure-creating");

    // Registered: the testbed's card with its hosts and roles, the countdown, the cost.
    // The testbed's card ("(azure)"), not the one of the lab being made ("(azure, not ...").
    const card = page.locator("section.card", {
      has: page.getByTestId(`azure-lab-${name}`),
      hasText: "(azure)",
    });
    await expect.poll(async () => card.count(), { timeout: 120_000, message: workerLog() }).toBe(1);
    // The hosts table only: the card also lists the network between roles once measured.
    const hostsTable = card.locator('table[data-testid^="testbed-hosts-"]');
    const hosts = await hostsTable.locator("tbody tr td:nth-child(2)").allTextContents();
    expect(hosts.map((h) => h.split(" ")[0])).toEqual(["server", "middleware", "client"]);
    await expect.poll(() => hostsTable.getByText(`${name}-server-1`).count()).toBe(1);
    const countdown = (await page.getByTestId(`expiry-${name}`).textContent()) ?? "";
    expect(countdown).toMatch(/^Expires in 3 h 5\d min \d\d s/);
    await expect.poll(() => card.getByText(/^Cost so far:/).count()).toBe(1);
    await screenshot(page, "azure-ready");

    await card.getByRole("button", { name: "Stop (deallocate)" }).click();
    await card.getByRole("button", { name: "Start" }).waitFor({ timeout: 60_000 });
    expect(await card.locator(".badge").first().textContent()).toBe("stopped");
    await card.getByRole("button", { name: "Start" }).click();
    await card.getByRole("button", { name: "Stop (deallocate)" }).waitFor({ timeout: 60_000 });

    await card.getByRole("button", { name: "Delete…" }).click();
    await card.locator('input[name="confirm-name"]').fill(`${name}x`);
    await card.getByRole("button", { name: `Delete ${name}` }).click();
    const mismatch = card.getByTestId(`error-delete-${name}`);
    await mismatch.waitFor();
    expect(await mismatch.textContent()).toBe(`type the lab's name '${name}' to delete it`);
    await screenshot(page, "azure-delete-confirm");
    await card.locator('input[name="confirm-name"]').fill(name);
    await card.getByRole("button", { name: `Delete ${name}` }).click();
    await expect
      .poll(async () => card.locator(".badge").first().textContent(), { timeout: 60_000 })
      .toBe("deleted");
    await screenshot(page, "azure-deleted");
  }, 300_000);
});
