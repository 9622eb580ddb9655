// End-to-end: percentiles vs a factor, a configuration's histogram and one run's time series,
// on runs seeded through the worker's real path (seed.ts): the pages must show the percentiles
// of the latencies the seeded tool outputs recorded, within one histogram bucket.
import { readFileSync } from "node:fs";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BASE_URL, launch, screenshot } from "./browser";
import { createSeeded, type SeededExperiment, seededConfiguration } from "./seed";

let browser: Browser;
let page: Page;
let exp: SeededExperiment;
// memtier's HdrHistogram keeps 2 significant digits (buckets under 1 % wide); the
// middleware's log-linear buckets are at most 3.1 % wide.
const CLIENT_BUCKET = 0.01;
const MIDDLEWARE_BUCKET = 0.032;
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

/** `got` within one bucket (a relative width) above or below `want`. */
function expectWithinBucket(got: number, want: number, width: number): void {
  expect(Math.abs(got - want) / want, `${got} vs ${want}`).toBeLessThanOrEqual(width);
}

/** The seeded client percentiles (p50, p90, p99) of the configuration. */
function seededPercentiles(workers: number, clients: number): number[] {
  const p = seededConfiguration(exp, { workers, clients_per_thread: clients }).percentiles_us;
  if (!p) throw new Error("no client latencies seeded");
  return [p["50"] ?? 0, p["90"] ?? 0, p["99"] ?? 0];
}

/** CSV lines (x, p50, p90, p99) against the seeded percentiles at `workers`. */
function expectRows(lines: string[], workers: number, clients: number[]): void {
  expect(lines).toHaveLength(clients.length);
  lines.forEach((line, i) => {
    const [x, ...ps] = line.split(",").map(Number);
    expect(x).toBe(clients[i]);
    const want = seededPercentiles(workers, clients[i] ?? 0);
    for (const [j, p] of ps.entries()) expectWithinBucket(p, want[j] ?? 0, CLIENT_BUCKET);
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
    expectRows(lines.slice(1), 8, [1, 4, 16]);
    const view = page.getByTestId("percentiles-view");
    // The seeded client histograms cover whole runs: the view says so, next to windowed numbers.
    expect(await view.getByTestId("percentiles-span").textContent()).toContain(
      "Whole-run histograms (whole run, incl. warm-up): not the chosen window.",
    );
    await view.scrollIntoViewIfNeeded();
    await screenshot(page, "results-percentiles-span");
    await view.getByLabel("percentiles at worker threads =").selectOption("16");
    // workers 16: capacity 3,640 ops/s, 96 / 3640 s = 26.4 ms: lower than at 8 workers.
    await expect
      .poll(async () => (await download(figure, "CSV")).trim().split("\r\n").slice(1))
      .not.toEqual(lines.slice(1));
    expectRows((await download(figure, "CSV")).trim().split("\r\n").slice(1), 16, [1, 4, 16]);
  });

  it("draws the histogram of a configuration with its percentiles marked and tabulated", async () => {
    const figure = page.getByTestId("figure-histogram");
    await figure.locator(".js-plotly-plot").waitFor();
    await expect.poll(() => figure.locator(".barlayer .trace").count()).toBe(1);
    const table = page.getByTestId("percentile-table");
    expect(await table.locator("tbody tr td:first-child").allTextContents()).toEqual([
      "p25",
      "p50",
      "p75",
      "p90",
      "p99",
    ]);
    // The first configuration (8 workers, 1 client per thread), whole runs of all instances.
    const p50 = await table.locator("tbody tr").nth(1).locator("td").allTextContents();
    expect(p50[0]).toBe("p50");
    expectWithinBucket(
      Number(p50[1]?.replaceAll(",", "")),
      seededPercentiles(8, 1)[0] ?? 0,
      CLIENT_BUCKET,
    );
    // One dashed line per percentile.
    await expect.poll(() => figure.locator(".shapelayer path").count()).toBe(5);
    expect(await table.locator("thead").textContent()).toContain("response time (µs)");
    await figure.scrollIntoViewIfNeeded();
    await screenshot(page, "results-percentiles-histogram");
  });

  it("shows the per-second series of a run with the stable window shaded", async () => {
    const figure = page.getByTestId("figure-time-series");
    await figure.locator(".js-plotly-plot").waitFor();
    await expect.poll(() => figure.locator(".scatterlayer .trace").count()).toBe(2);
    const runTime = exp.run_time_s ?? 0;
    const { start_s: start, end_s: end } = exp.preview.stable_window ?? { start_s: 0, end_s: 0 };
    expect(await page.getByTestId("series-window").textContent()).toContain(
      `stable window ${start}–${end} s`,
    );
    const csv = await download("figure-time-series", "CSV");
    const rows = csv.trim().split("\r\n");
    expect(rows[0]).toBe("time (s),throughput (ops/s),response time (µs),in stable window");
    // One row per second memtier reported: seconds 0 .. run_time_s - 1, and its last
    // millisecond's second when a request completed in it.
    expect(rows.length - 1).toBeGreaterThanOrEqual(runTime);
    expect(rows.length - 1).toBeLessThanOrEqual(runTime + 1);
    // Second `start` is the first of the stable window [start, end).
    expect(rows[start + 1]?.split(",")[3]).toBe("yes");
    expect(rows[start]?.split(",")[3]).toBe("no");
    await figure.scrollIntoViewIfNeeded();
    await screenshot(page, "results-time-series");
  });

  it("follows the middleware source: its own clock and the middleware's histogram", async () => {
    await page.getByTestId("results-view").getByLabel("Source").selectOption("middleware");
    const table = page.getByTestId("percentile-table");
    // The middleware's own totals over the stable window (0.8 R in the seed).
    const seeded = seededConfiguration(exp, { workers: 8, clients_per_thread: 1 });
    const want = seeded.middleware_percentiles_us?.["50"] ?? 0;
    await expect
      .poll(async () => {
        const cells = await table.locator("tbody tr").nth(1).locator("td").allTextContents();
        return Math.abs(Number(cells[1]?.replaceAll(",", "")) - want) / want;
      })
      .toBeLessThanOrEqual(MIDDLEWARE_BUCKET);
    const figure = page.getByTestId("figure-time-series");
    await expect.poll(() => figure.locator(".scatterlayer .trace").count()).toBe(2);
  });
});
