// End-to-end: every control of a results view lives in the URL. Change them all, reload, open
// the link in a new browser context, go back and forward: the same view each time.
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ExperimentPublic } from "@/api";
import { BASE_URL, launch, screenshot } from "./browser";
import { createSeeded } from "./seed";

let browser: Browser;
let page: Page;
let exp: ExperimentPublic;

beforeAll(async () => {
  // Two factors at two levels each: a 2^2 design, so the factorial panel (and its toggle) shows.
  exp = await createSeeded(`url-state-${Date.now()}`, [8, 16], [1, 4]);
  browser = await launch();
  page = await browser.newPage({ viewport: { width: 1360, height: 900 } });
});

afterAll(async () => {
  await browser?.close();
});

/** Every control of the results view, by name or label, with its current value. */
async function viewOf(p: Page): Promise<Record<string, string | boolean>> {
  const view = p.getByTestId("results-view");
  await view.getByTestId("summary-table").waitFor();
  await p.getByTestId("figure-time-series").locator("select[name=run]").waitFor();
  return view.evaluate((root) => {
    const out: Record<string, string | boolean> = {};
    root.querySelectorAll("select, input").forEach((el, i) => {
      const key = `${el.getAttribute("name") ?? el.closest("label")?.textContent?.trim() ?? i}`;
      out[key] =
        el instanceof HTMLInputElement && el.type === "checkbox"
          ? el.checked
          : (el as HTMLInputElement).value;
    });
    return out;
  });
}

function results(p: Page) {
  return p.getByTestId("results-view");
}

describe("results view in the URL", () => {
  it("keeps every changed control across a reload and in a new browser context", async () => {
    await page.goto(`${BASE_URL}/experiments/${exp.id}`);
    const view = results(page);
    await view.getByTestId("summary-table").waitFor();
    await view.getByLabel("Source").selectOption("middleware");
    await view.getByLabel("x axis").selectOption("clients_per_thread");
    await view.locator("input[name=logx]").check();
    await view.locator("input[name=logy]").check();
    await view.locator("select[name=band]").selectOption("band");
    await view.locator("input[name=window_start_s]").fill("6");
    await view.locator("input[name=window_end_s]").fill("14");
    await view.getByRole("button", { name: "Re-cut" }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get("window")).toBe("6-14");
    const histogram = page.getByTestId("figure-histogram");
    // The pickers fill as their lists arrive (the page loads every figure at once).
    await expect
      .poll(() => histogram.locator("select[name=config] option").count())
      .toBeGreaterThan(2);
    const configs = await histogram
      .locator("select[name=config] option")
      .evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value));
    await histogram.locator("select[name=config]").selectOption(configs[2] ?? "");
    await histogram.locator("select[name=metric]").selectOption("queue");
    await histogram.locator("input[name=hlogx]").check();
    await page.getByTestId("percentiles-view").locator("select[name=plevel]").selectOption("16");
    const series = page.getByTestId("figure-time-series");
    await expect.poll(() => series.locator("select[name=run] option").count()).toBeGreaterThan(3);
    const runs = await series
      .locator("select[name=run] option")
      .evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value));
    await series.locator("select[name=run]").selectOption(runs[3] ?? "");
    await page.getByTestId("factorial").locator("input[name=mult]").check();

    const url = page.url();
    const params = new URL(url).searchParams;
    expect(Object.fromEntries(params)).toMatchObject({
      source: "middleware",
      x: "clients_per_thread",
      logx: "true",
      logy: "true",
      band: "band",
      window: "6-14",
      config: configs[2],
      metric: "queue",
      hlogx: "true",
      plevel: "16",
      run: runs[3],
      mult: "true",
    });
    const before = await viewOf(page);
    expect(before).toMatchObject({ band: "band", logx: true, run: runs[3], config: configs[2] });
    await screenshot(page, "results-view-url-state");

    await page.reload();
    expect(page.url()).toBe(url);
    // Panels render as their data arrives: poll until every control is back.
    await expect.poll(() => viewOf(page), { timeout: 20_000 }).toEqual(before);

    const other = await browser.newContext({ viewport: { width: 1360, height: 900 } });
    const fresh = await other.newPage();
    await fresh.goto(url);
    await expect.poll(() => viewOf(fresh), { timeout: 20_000 }).toEqual(before);
    await other.close();
  });

  it("steps through views with back and forward, in words when a view is empty", async () => {
    const url = page.url();
    await results(page).getByLabel("Request type").selectOption("get");
    await results(page).getByText("This experiment sent no get requests").waitFor();
    await page.goBack();
    expect(page.url()).toBe(url);
    await expect.poll(() => results(page).getByLabel("Request type").inputValue()).toBe("all");
    await results(page).getByTestId("summary-table").waitFor();
    await page.goForward();
    await results(page).getByText("This experiment sent no get requests").waitFor();
    await page.goBack();
    // Back again past the factorial toggle: it is off, the rest stays.
    await page.goBack();
    await expect.poll(() => new URL(page.url()).searchParams.get("mult")).toBeNull();
    await expect
      .poll(() => page.getByTestId("factorial").locator("input[name=mult]").isChecked())
      .toBe(false);
    expect(new URL(page.url()).searchParams.get("source")).toBe("middleware");
  });

  it("keeps the experiment list's search and template filter in the URL", async () => {
    await page.goto(`${BASE_URL}/experiments`);
    await page.getByLabel("Search experiments").fill("url-state");
    await page.getByLabel("Template filter").selectOption("write_throughput");
    await expect
      .poll(() => Object.fromEntries(new URL(page.url()).searchParams))
      .toEqual({ q: "url-state", template: "write_throughput" });
    await page.reload();
    expect(await page.getByLabel("Search experiments").inputValue()).toBe("url-state");
    // The template options load after the page: the URL's choice applies once they exist.
    await expect
      .poll(() => page.getByLabel("Template filter").inputValue())
      .toBe("write_throughput");
    await page.getByTestId("experiments-table").getByRole("link", { name: exp.name }).waitFor();
  });

  it("keeps the Models calculators' inputs in the URL", async () => {
    await page.goto(`${BASE_URL}/models`);
    await page.locator('input[name="mm1-arrival_rate_per_s"]').fill("12000");
    await page.locator('input[name="mmm-servers"]').fill("8");
    await page.locator('input[name="mva-population"]').fill("48");
    await page.locator('input[name="station-1-service"]').fill("500");
    // The last change reaches the URL last: wait for it.
    await expect
      .poll(() => new URL(page.url()).searchParams.get("mva.stations") ?? "")
      .toContain('"service_us":500');
    const url = page.url();
    expect(new URL(url).searchParams.get("mm1.lambda")).toBe("12000");
    expect(new URL(url).searchParams.get("mmm.servers")).toBe("8");
    const other = await browser.newContext();
    const fresh = await other.newPage();
    await fresh.goto(url);
    expect(await fresh.locator('input[name="mm1-arrival_rate_per_s"]').inputValue()).toBe("12000");
    expect(await fresh.locator('input[name="mmm-servers"]').inputValue()).toBe("8");
    expect(await fresh.locator('input[name="mva-population"]').inputValue()).toBe("48");
    expect(await fresh.locator('input[name="station-1-service"]').inputValue()).toBe("500");
    await other.close();
  });
});
