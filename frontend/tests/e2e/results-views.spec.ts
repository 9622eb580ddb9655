// End-to-end: percentiles vs a factor, a configuration's histogram and one run's time series,
// on seeded runs (seed_results.sql: every configuration has R = N / X, p50 = R to 100 us).
import { readFileSync } from "node:fs";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ExperimentPublic } from "@/api";
import { BASE_URL, launch, screenshot } from "./browser";
import { createSeeded } from "./seed";

let browser: Browser;
let page: Page;
let exp: ExperimentPublic;
const name = `seeded-views-${Date.now()}`;

beforeAll(async () => {
  exp = await createSeeded(name, [8, 16], [1, 4, 16]);
  browser = await launch();
  const context = await browser.newContext({
    viewport: { width: 1360, height: 900 },
    acceptDownloads: true,
  });
  page = await context.newPage();
  await page.goto(`${BASE_URL}/experiments/${exp.id}`);
  await page.getByTestId("summary-table").waitFor();
  await page.getByTestId("results-view").getByLabel("x axis").selectOption("clients_per_thread");
});

afterAll(async () => {
  await browser?.close();
});

/** CSV lines as numbers, compared to 0.01 us. */
function expectRows(lines: string[], expected: number[][]): void {
  expect(lines).toHaveLength(expected.length);
  lines.forEach((line, i) => {
    const cells = line.split(",").map(Number);
    expected[i]?.forEach((v, j) => {
      expect(cells[j]).toBeCloseTo(v, 2);
    });
  });
}

async function download(testId: string, button: string): Promise<string> {
  const [file] = await Promise.all([
    page.waitForEvent("download"),
    page.getByTestId(testId).getByRole("button", { name: button, exact: true }).click(),
  ]);
  return readFileSync(await file.path(), "utf8");
}

describe("percentiles, histogram and time series", () => {
  it("plots p50, p90 and p99 against the x factor at one worker count", async () => {
    const figure = `figure-${name}-percentiles-client-all`;
    await page.getByTestId(figure).locator(".js-plotly-plot").waitFor();
    await expect
      .poll(() => page.getByTestId(figure).locator(".scatterlayer .trace").count())
      .toBe(3);
    // Drawn by the server; the CSV holds the plotted lines.
    expect(await page.getByTestId(figure).locator(".xtitle").textContent()).toBe(
      "Clients per thread",
    );
    expect(await page.getByTestId(figure).locator(".ytitle").textContent()).toBe(
      "Response time (µs)",
    );
    const lines = (await download(figure, "CSV")).trim().split("\r\n");
    expect(lines[0]).toBe(
      "Clients per thread,p50 response time (µs),p90 response time (µs),p99 response time (µs)",
    );
    // workers 8: R = 15 ms until the 3,320 ops/s capacity, then 96 / 3320 s = 28.9 ms.
    expectRows(lines.slice(1), [
      [1, 15000, 15800, 16000],
      [4, 15000, 15800, 16000],
      [16, 28900, 29700, 29900],
    ]);
    const view = page.getByTestId("percentiles-view");
    // The seeded client histograms cover whole runs: the view says so, next to windowed numbers.
    expect(await view.getByTestId("percentiles-span").textContent()).toContain(
      "Whole-run histograms (whole run, incl. warm-up): not the chosen window.",
    );
    await view.scrollIntoViewIfNeeded();
    await screenshot(page, "results-percentiles-span");
    await view.getByLabel("percentiles at worker threads =").selectOption("16");
    // workers 16: capacity 3,640 ops/s, 96 / 3640 s = 26.4 ms to 100 us.
    await expect
      .poll(async () => (await download(figure, "CSV")).trim().split("\r\n")[3])
      .toMatch(/^16,26400/);
  });

  it("draws the histogram of a configuration with its percentiles marked and tabulated", async () => {
    const figure = page.getByTestId("figure-histogram");
    await figure.locator(".js-plotly-plot").waitFor();
    expect(await figure.locator(".barlayer .trace").count()).toBe(1);
    const table = page.getByTestId("percentile-table");
    expect(await table.locator("tbody tr td:first-child").allTextContents()).toEqual([
      "p25",
      "p50",
      "p75",
      "p90",
      "p99",
    ]);
    expect(await table.locator("tbody tr").nth(1).textContent()).toBe("p5015,000");
    // One dashed line per percentile.
    expect(await figure.locator(".shapelayer path").count()).toBe(5);
    expect(await table.locator("thead").textContent()).toContain("response time (µs)");
    await figure.scrollIntoViewIfNeeded();
    await screenshot(page, "results-percentiles-histogram");
  });

  it("shows the per-second series of a run with the stable window shaded", async () => {
    const figure = page.getByTestId("figure-time-series");
    await figure.locator(".js-plotly-plot").waitFor();
    await expect.poll(() => figure.locator(".scatterlayer .trace").count()).toBe(2);
    expect(await page.getByTestId("series-window").textContent()).toContain(
      "stable window 10–80 s",
    );
    const csv = await download("figure-time-series", "CSV");
    const rows = csv.trim().split("\r\n");
    expect(rows[0]).toBe("time (s),throughput (ops/s),response time (µs),in stable window");
    expect(rows).toHaveLength(91);
    // Second 10 is the first of the stable window [10, 80).
    expect(rows[11]?.split(",")[3]).toBe("yes");
    expect(rows[10]?.split(",")[3]).toBe("no");
    await figure.scrollIntoViewIfNeeded();
    await screenshot(page, "results-time-series");
  });

  it("follows the middleware source: its own clock and the middleware's histogram", async () => {
    await page.getByTestId("results-view").getByLabel("Source").selectOption("middleware");
    const table = page.getByTestId("percentile-table");
    // Middleware total time is 0.8 R in the seed: 12 ms.
    await expect.poll(() => table.locator("tbody tr").nth(1).textContent()).toBe("p5012,000");
    const figure = page.getByTestId("figure-time-series");
    await expect.poll(() => figure.locator(".scatterlayer .trace").count()).toBe(2);
  });
});
