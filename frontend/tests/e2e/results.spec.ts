// End-to-end: results of finished runs (seeded through the worker's real path), figures,
// exports, compare. Expected figures are what the seeded tool outputs measured (seed.ts).
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import type { Browser, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BASE_URL, launch, screenshot } from "./browser";
import { createSeeded, meanStd, type SeededExperiment, seededConfiguration } from "./seed";

let browser: Browser;
let page: Page;
const stamp = Date.now();
let first: SeededExperiment;
let second: SeededExperiment;
// The middleware's total time is this share of the clients' response time in the seed
// (worker/seeding/shape.py MIDDLEWARE_TOTAL).
const MIDDLEWARE_TOTAL = 0.8;

/** Seeded mean and std over repetitions of (8 workers, 1 client per thread): throughput and
 * response time, the latter scaled by `rt` (the middleware's share). */
function seededFirstRow(rt = 1): {
  x: { mean: number; std: number };
  r: { mean: number; std: number };
} {
  const runs = seededConfiguration(first, { workers: 8, clients_per_thread: 1 }).runs;
  return {
    x: meanStd(runs.map((r) => r.throughput)),
    r: meanStd(runs.map((r) => r.response_time_us * rt)),
  };
}

/** The "mean ± std" cells of a table row, as numbers. */
async function pairs(row: Locator): Promise<[number, number][]> {
  const cells = await row.locator("td").allTextContents();
  return cells
    .map((c) => /^([\d,]+(?:\.\d+)?) ± ([\d,]+(?:\.\d+)?)$/.exec(c.trim()))
    .filter((m) => m !== null)
    .map((m) => [Number(m[1]?.replaceAll(",", "")), Number(m[2]?.replaceAll(",", ""))]);
}

/** `got` [mean, std] close to the seeded ones: means within 0.1 %, stds within 5 % (the
 * stored figures are window means of whole requests per second). */
function expectPair(got: [number, number] | undefined, want: { mean: number; std: number }): void {
  expect(got, `${got} vs ${JSON.stringify(want)}`).toBeDefined();
  const [mean, std] = got ?? [0, 0];
  expect(Math.abs(mean - want.mean) / want.mean).toBeLessThan(0.001);
  expect(Math.abs(std - want.std) / want.std).toBeLessThan(0.05);
}

/** The figure's lines and bands: its Plotly traces but the saturation-knee markers. */
function traceCount(testId: string) {
  return page
    .getByTestId(testId)
    .locator(".js-plotly-plot")
    .evaluate(
      (el) =>
        (el as unknown as { data: { name?: string }[] }).data.filter(
          (t) => !(t.name ?? "").startsWith("knee"),
        ).length,
    );
}

beforeAll(async () => {
  first = await createSeeded(`seeded-a-${stamp}`, [8, 16, 32]);
  second = await createSeeded(`seeded-b-${stamp}`, [64]);
  browser = await launch();
  const context = await browser.newContext({
    viewport: { width: 1360, height: 900 },
    acceptDownloads: true,
  });
  page = await context.newPage();
});

afterAll(async () => {
  await browser?.close();
});

describe("results", () => {
  it("shows a finished experiment: summary and progress on top, then its tabs", async () => {
    await page.goto(`${BASE_URL}/experiments/${first.id}`);
    // Issue 27.10: the configurations and runs tables came first and pushed the results
    // 1,000 px down a 4,600 px page. Now the summary, progress and tab bar open in view,
    // on the Results tab (something has run), and each table is a tab of its own.
    await page.getByTestId("results-view").waitFor();
    expect(await page.locator("h1 .badge").textContent()).toBe("finished");
    expect(await page.getByTestId("experiment-summary").textContent()).toContain("36 / 36");
    const viewport = page.viewportSize()?.height ?? 0;
    for (const id of ["experiment-summary", "experiment-progress", "experiment-tabs"]) {
      const box = await page.getByTestId(id).boundingBox();
      expect(box && box.y + box.height, id).toBeLessThan(viewport);
    }
    expect(await page.getByTestId("configurations-table").count()).toBe(0);
    expect(await page.getByTestId("runs-table").count()).toBe(0);
    await screenshot(page, "experiment-results-tab");
    await page.getByRole("tab", { name: "Runs" }).click();
    await page.getByTestId("runs-table").waitFor();
    await expect.poll(() => page.getByTestId("runs-table").locator("tbody tr").count()).toBe(36);
    expect(await page.getByTestId("results-view").count()).toBe(0);
    expect(page.url()).toContain("tab=runs");
    await screenshot(page, "experiment-runs-tab");
    // The tab is in the URL: a reload stays on it, Back returns to Results.
    await page.reload();
    await page.getByTestId("runs-table").waitFor();
    await page.getByRole("tab", { name: "Configurations" }).click();
    await page.getByTestId("configurations-table").waitFor();
    await expect
      .poll(() => page.getByTestId("configurations-table").locator("tbody tr").count())
      .toBe(12);
    await page.goBack();
    await page.getByTestId("runs-table").waitFor();
    await page.goBack();
    await page.getByTestId("results-view").waitFor();
  });

  it("plots throughput vs clients with one line per worker count", async () => {
    const figures: string[] = [];
    page.on("request", (r) => {
      if (r.url().includes("/figures/throughput.json")) figures.push(r.url());
    });
    await page.getByTestId("results-view").getByLabel("x axis").selectOption("clients_per_thread");
    const figure = `figure-seeded-a-${stamp}-throughput-client-all`;
    await page.getByTestId(figure).locator(".js-plotly-plot").waitFor();
    await expect.poll(() => traceCount(figure)).toBe(3);
    const xTitle = await page.getByTestId(figure).locator(".xtitle").textContent();
    // Drawn by the server (GET .../figures/throughput.json): titles from the parameter schema.
    expect(xTitle).toBe("Clients per thread");
    expect(await page.getByTestId(figure).locator(".ytitle").textContent()).toBe(
      "Throughput (ops/s)",
    );
    expect(await page.getByTestId(figure).locator(".legendtext").allTextContents()).toEqual([
      "8 worker threads",
      "16 worker threads",
      "32 worker threads",
    ]);
    // The figure is the server's Plotly JSON for the page's selection.
    await expect.poll(() => figures.some((u) => u.includes("x=clients_per_thread"))).toBe(true);
    // The spread as a band: the server adds one band per line, under it; log y is asked of it.
    await page.getByTestId("results-view").locator("select[name=band]").selectOption("band");
    await expect.poll(() => traceCount(figure)).toBe(6);
    await page.getByTestId("results-view").locator("input[name=logy]").check();
    await expect
      .poll(() => figures.some((u) => u.includes("band=band") && u.includes("log_y=true")))
      .toBe(true);
    await screenshot(page, "results-band-log");
    await page.getByTestId("results-view").locator("input[name=logy]").uncheck();
    await page.getByTestId("results-view").locator("select[name=band]").selectOption("bars");
    await expect.poll(() => traceCount(figure)).toBe(3);
    await screenshot(page, "results");
  });

  it("summarises mean ± std over repetitions, per source", async () => {
    // workers 8, 1 client per thread: 396, 400, 404 ops/s over the three repetitions.
    const row = page.getByTestId("summary-table").locator("tbody tr").first();
    const client = await pairs(row);
    expectPair(client[0], seededFirstRow().x);
    expectPair(client[1], seededFirstRow().r);
    // The middleware counts the same requests, and its own (shorter) response time.
    await page.getByTestId("results-view").getByLabel("Source").selectOption("middleware");
    const want = seededFirstRow(MIDDLEWARE_TOTAL).r.mean;
    await expect
      .poll(async () => Math.abs(((await pairs(row))[1]?.[0] ?? 0) - want) / want)
      .toBeLessThan(0.001);
    const middleware = await pairs(row);
    expectPair(middleware[0], seededFirstRow().x);
    expectPair(middleware[1], seededFirstRow(MIDDLEWARE_TOTAL).r);
  });

  it("shows the response-time breakdown and the interactive law from the analysis API", async () => {
    await page.getByTestId("figure-breakdown").locator(".js-plotly-plot").waitFor();
    // queue, server, processing, network
    await expect
      .poll(() => page.getByTestId("figure-breakdown").locator(".barlayer .trace").count())
      .toBe(4);
    const law = page.getByTestId("interactive-law");
    await expect.poll(() => law.locator("tbody tr").count()).toBe(12);
    // Times in µs, as in every figure.
    expect(await law.locator("thead").textContent()).toContain("R (µs)");
    // Each seeded run follows R = N / X; means over repetitions keep it within 0.1 %.
    const deviations = await law.locator("tbody tr td:last-child").allTextContents();
    for (const d of deviations) expect(Math.abs(Number(d))).toBeLessThan(0.1);
    await page.getByTestId("figure-breakdown").scrollIntoViewIfNeeded();
    await page.screenshot({ path: "test-results/screenshots/results-analysis.png" });
  });

  it("analyses a 2^2 r design: effects with intervals and the allocation of variation", async () => {
    const design = await createSeeded(`seeded-f-${stamp}`, [8, 32], [4, 16]);
    await page.goto(`${BASE_URL}/experiments/${design.id}`);
    const card = page.getByTestId("factorial");
    await card.locator(".js-plotly-plot").first().waitFor();
    // The mean, two main effects and their interaction.
    await expect.poll(() => card.locator("tbody tr").count()).toBe(4);
    // Diagnostics: residuals, QQ, half-normal (3 effects), main effects, interactions.
    const diagnostics = page.getByTestId("factorial-diagnostics");
    await expect.poll(() => diagnostics.locator(".js-plotly-plot").count()).toBe(5);
    const halfNormal = diagnostics.getByTestId(
      `figure-experiment-${design.id}-factorial-half-normal`,
    );
    await expect
      .poll(() => halfNormal.locator(".scatterlayer .trace").first().locator(".point").count())
      .toBe(3);
    const shares = await card.locator("tbody tr td:nth-child(3)").allTextContents();
    const total = shares.filter(Boolean).reduce((sum, v) => sum + Number(v), 0);
    expect(total).toBeGreaterThan(90);
    expect(total).toBeLessThanOrEqual(100.01);
    // A critical t from a table replaces the exact quantile in every interval.
    const ciBefore = await card.locator("tbody tr td:nth-child(4)").first().textContent();
    await card.locator('input[name="t-critical"]').fill("10");
    await expect.poll(() => card.textContent()).toContain("(as given)");
    await expect
      .poll(() => card.locator("tbody tr td:nth-child(4)").first().textContent())
      .not.toBe(ciBefore);
    await card.locator('input[name="t-critical"]').fill("");
    await card.scrollIntoViewIfNeeded();
    await page.screenshot({ path: "test-results/screenshots/factorial.png" });
    await diagnostics.scrollIntoViewIfNeeded();
    await page.screenshot({ path: "test-results/screenshots/factorial-diagnostics.png" });
    // The effects table as the server writes it: booktabs, caption naming the experiment, label.
    const [factorialTex] = await Promise.all([
      page.waitForEvent("download"),
      page.getByTestId("factorial-table-exports").getByRole("button", { name: "LaTeX" }).click(),
    ]);
    const effects = readFileSync(await factorialTex.path(), "utf8");
    expect(effects).toContain("\\toprule");
    expect(effects).toContain(`Effects on throughput in experiment seeded-f-${stamp}`);
    expect(effects).toMatch(/\\label\{tab:[a-z0-9-]+:factorial\}/);
    await page.goto(`${BASE_URL}/experiments/${first.id}`);
    await page.getByTestId("summary-table").waitFor();
    await page.getByTestId("results-view").getByLabel("Source").selectOption("middleware");
  });

  it("re-cuts the window, with the server's 422 at the window inputs", async () => {
    const view = page.getByTestId("results-view");
    // Both inside the run, the end before the start.
    await view.locator('input[name="window_start_s"]').fill("15");
    await view.locator('input[name="window_end_s"]').fill("10");
    await view.getByRole("button", { name: "Re-cut" }).click();
    const error = page.getByTestId("error-window");
    await error.waitFor();
    expect(await error.textContent()).toBe("must be greater than window_start_s");
    await view.getByRole("button", { name: "Stored window" }).click();
    await error.waitFor({ state: "detached" });
    await page.getByTestId("summary-table").waitFor();
  });

  it("exports the summary as CSV and LaTeX, the figure as PNG and as a vector PDF from the server", async () => {
    // The summary as the server writes it (GET .../tables/summary.{csv,tex}, page's selection).
    const [csv] = await Promise.all([
      page.waitForEvent("download"),
      page.getByTestId("table-exports").getByRole("button", { name: "CSV" }).click(),
    ]);
    expect(csv.suggestedFilename()).toBe(`seeded-a-${stamp}-summary-middleware-all.csv`);
    const lines = readFileSync(await csv.path(), "utf8").split("\r\n");
    expect(lines[0]).toBe(
      "Worker threads,Clients per thread,Reps,Throughput mean (ops/s),Throughput std (ops/s),Response time mean (µs),Response time std (µs)",
    );
    const cells = (lines[1] ?? "").split(",").map(Number);
    expect(cells.slice(0, 3)).toEqual([8, 1, 3]);
    const want = seededFirstRow(MIDDLEWARE_TOTAL);
    expectPair([cells[3] ?? 0, cells[4] ?? 0], want.x);
    expectPair([cells[5] ?? 0, cells[6] ?? 0], want.r);
    const [tex] = await Promise.all([
      page.waitForEvent("download"),
      page.getByTestId("table-exports").getByRole("button", { name: "LaTeX" }).click(),
    ]);
    const summary = readFileSync(await tex.path(), "utf8");
    expect(summary).toContain("\\toprule");
    expect(summary).toContain(`Results of experiment seeded-a-${stamp} (middleware side`);
    expect(summary).toMatch(/\\label\{tab:[a-z0-9-]+:summary\}/);
    await page.getByRole("tab", { name: "Configurations" }).click();
    const [config] = await Promise.all([
      page.waitForEvent("download"),
      page
        .getByTestId("configuration-table-exports")
        .getByRole("button", { name: "LaTeX" })
        .click(),
    ]);
    expect(readFileSync(await config.path(), "utf8")).toContain(
      `Configuration of experiment seeded-a-${stamp}`,
    );
    // Back on Results: its selection (the middleware side) is kept in the URL.
    await page.getByRole("tab", { name: "Results" }).click();
    const figure = `figure-seeded-a-${stamp}-throughput-middleware-all`;
    const exportFigure = async (format: "PNG" | "PDF") => {
      const [download] = await Promise.all([
        page.waitForEvent("download"),
        page.getByTestId(figure).getByRole("button", { name: format, exact: true }).click(),
      ]);
      return download;
    };
    const png = await exportFigure("PNG");
    expect(png.suggestedFilename()).toBe(`seeded-a-${stamp}-throughput-middleware-all.png`);
    expect(
      readFileSync(await png.path())
        .subarray(1, 4)
        .toString(),
    ).toBe("PNG");
    // PDF comes from the server (GET .../figures/throughput.pdf with the page's selection):
    // a vector page at the chosen printed width, text as fonts, no raster image.
    const requested: string[] = [];
    page.on("request", (r) => {
      if (r.url().includes("/figures/")) requested.push(r.url());
    });
    await page.getByTestId(figure).locator("select[name=figure-width]").selectOption("page");
    const pdf = await exportFigure("PDF");
    expect(pdf.suggestedFilename()).toBe(`seeded-a-${stamp}-throughput-middleware-all.pdf`);
    const url = new URL(requested.at(-1) ?? "");
    expect(url.pathname).toBe(`/api/v1/experiments/${first.id}/figures/throughput.pdf`);
    expect(url.searchParams.get("source")).toBe("middleware");
    expect(url.searchParams.get("width")).toBe("page");
    const path = await pdf.path();
    expect(readFileSync(path).subarray(0, 5).toString()).toBe("%PDF-");
    const info = execFileSync("pdfinfo", [path], { encoding: "utf8" });
    const widthPt = Number(/Page size:\s+([\d.]+) x/.exec(info)?.[1]);
    expect(Math.abs(widthPt - 7.16 * 72)).toBeLessThan(1.5); // the page preset, 7.16 in
    expect(execFileSync("pdffonts", [path], { encoding: "utf8" })).toMatch(/LiberationSerif|Times/);
    const images = execFileSync("pdfimages", ["-list", path], { encoding: "utf8" });
    expect(images.trim().split("\n").length).toBe(2); // the header only
  });

  it("overlays two experiments on the compare page", async () => {
    await page.goto(`${BASE_URL}/compare`);
    await page.getByLabel(`compare ${first.name}`, { exact: true }).check();
    await page.getByLabel(`compare ${second.name}`, { exact: true }).check();
    const toolbar = page.getByTestId("compare-toolbar");
    await toolbar.getByLabel("x axis").selectOption("clients_per_thread");
    const figure = page.getByTestId("grouped-curves");
    await figure.locator(".js-plotly-plot").waitFor();
    // Grouped by experiment: one mean line per experiment, each with its band.
    await expect.poll(() => figure.locator(".scatterlayer .trace").count()).toBe(4);
    await screenshot(page, "compare");
  });
});
