// End-to-end: a latency-SLO search designed on the New experiment page: the design mode beside
// the grid, its fields (an empty one shows the server's default), a 422 shown at the search,
// the preview's bound (rates, runs, duration), then the created search's page stating the
// load generator's sending pattern, and a copy reopening in the search mode.
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ExperimentPublic, GridPreviewWithPoints } from "@/api";
import { api, BASE_URL, launch, screenshot } from "./browser";

let browser: Browser;
let page: Page;
const NAME = `slo-design-${Date.now()}`;
const SLO_MODE = 'input[name="design-mode"][value="slo"]';
const SEARCH = {
  target_us: 2000,
  start_rate: 100,
  max_rate: 1600,
  resolution_pct: 25,
  max_repeats: 1,
  confirm_repeats: 1,
};

beforeAll(async () => {
  browser = await launch();
  page = await browser.newPage({ viewport: { width: 1360, height: 1000 } });
});

afterAll(async () => {
  await browser?.close();
});

async function fill(name: string, value: string): Promise<void> {
  await page.locator(`input[name="${name}"]`).fill(value);
}

describe("the latency-SLO search design mode", () => {
  it("designs a search with its own preview and creates it", async () => {
    await page.goto(`${BASE_URL}/experiments/new`);
    await page.getByRole("heading", { name: "New experiment" }).waitFor();
    await page.locator(SLO_MODE).check();
    await page.getByTestId("slo-search-editor").waitFor();
    // The grid's editors give way to the search's.
    expect(await page.getByTestId("repetition-rule").count()).toBe(0);
    await fill("name", NAME);
    // No target yet: the server's 422 names it, at the field.
    await expect
      .poll(() => page.getByTestId("error-slo-target_us").textContent(), { timeout: 15_000 })
      .toContain("required");
    await fill("slo-target_ms", "2");
    await fill("slo-start_rate", "5000");
    await fill("slo-max_rate", "1600");
    await expect
      .poll(() => page.getByTestId("error-slo").textContent(), { timeout: 15_000 })
      .toContain("start_rate must not exceed max_rate");
    await fill("slo-start_rate", "100");
    await fill("slo-resolution_pct", "25");
    await fill("slo-max_repeats", "1");
    await fill("slo-confirm_repeats", "1");
    // The bound the API computes for the same design, shown as the preview's.
    const served = await api<GridPreviewWithPoints>("/experiments/preview", {
      method: "POST",
      body: JSON.stringify({ name: NAME, factors: {}, slo_search: SEARCH }),
    });
    expect(served.slo_search?.max_runs).toBeGreaterThan(0);
    await expect
      .poll(() => page.getByTestId("preview-runs").textContent(), { timeout: 15_000 })
      .toBe(String(served.runs));
    expect(await page.getByTestId("preview-configurations").textContent()).toBe(
      String(served.configurations),
    );
    expect(await page.getByTestId("preview-slo-bound").textContent()).toContain(
      "doubling from 100 up to 1600",
    );
    await expect.poll(() => page.getByRole("heading", { name: "Search preview" }).count()).toBe(1);
    // An empty field shows the default the search will run with.
    expect(await page.locator('input[name="slo-confidence"]').getAttribute("placeholder")).toBe(
      "0.95",
    );
    await screenshot(page, "slo-design-preview");

    await page.getByRole("button", { name: "Create experiment" }).click();
    await page.waitForURL(/\/experiments\/\d+$/);
    const id = Number(new URL(page.url()).pathname.split("/").pop());
    const exp = await api<ExperimentPublic>(`/experiments/${id}`);
    expect(exp.slo_search).toMatchObject(SEARCH);
    expect(exp.factors).toEqual({});
    expect(exp.preview.runs).toBe(served.runs);
    const panel = page.getByTestId("slo-search");
    await panel.getByText("Latency-SLO search: p99 ≤ 2 ms at 95 % confidence").waitFor();
    const pattern = await page.getByTestId("slo-sending-pattern").innerText();
    expect(pattern).toContain("At 100 requests/s per connection memtier sends 2 requests");
    expect(pattern).toContain("closed loop");
    await screenshot(page, "slo-design-created");

    // A copy opens in the search mode with the search's fields.
    await page.goto(`${BASE_URL}/experiments/new?from=${id}`);
    await page.getByTestId("slo-search-editor").waitFor();
    expect(await page.locator(SLO_MODE).isChecked()).toBe(true);
    expect(await page.locator('input[name="slo-target_ms"]').inputValue()).toBe("2");
    expect(await page.locator('input[name="slo-max_rate"]').inputValue()).toBe("1600");
  });
});
