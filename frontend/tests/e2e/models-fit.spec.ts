// End-to-end: the Models tab of a seeded experiment: measured points under the MVA curve built
// from the experiment's own times, a what-if that moves the curve, the queue models, export.
import { readFileSync } from "node:fs";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ExperimentPublic } from "@/api";
import { BASE_URL, launch, screenshot } from "./browser";
import { createSeeded } from "./seed";

let browser: Browser;
let page: Page;
const stamp = Date.now();
let exp: ExperimentPublic;

beforeAll(async () => {
  // Two middlewares: the middleware layer carries twice what one would (the what-if below).
  // Each machine runs one instance per middleware, each of 1 thread: N = 3 x 2 x 1 x c = 6c.
  exp = await createSeeded(`models-${stamp}`, [8, 32], [1, 4, 8, 16, 32], {
    middlewares: 2,
    threads_per_instance: 1,
  });
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

const FIGURE = () => `figure-models-${stamp}-mva-throughput`;

function traceNames() {
  return page.getByTestId(FIGURE()).locator(".legend .traces .legendtext").allTextContents();
}

/** The model curve's y values as Plotly holds them (the graph div's data). */
function curveY(name: string) {
  return page
    .getByTestId(FIGURE())
    .locator(".js-plotly-plot")
    .evaluate((gd, n) => {
      const data = (gd as unknown as { data: { name: string; y: number[] }[] }).data;
      return data.find((t) => t.name === n)?.y ?? [];
    }, name);
}

describe("models over measurements", () => {
  it("opens the Models tab and draws the model over the measured points", async () => {
    await page.goto(`${BASE_URL}/experiments/${exp.id}`);
    await page.getByRole("tab", { name: "Models" }).click();
    await page.getByTestId("models-view").waitFor();
    expect(page.url()).toContain("tab=models");
    await page.getByTestId(FIGURE()).locator(".js-plotly-plot").waitFor();
    await expect.poll(traceNames).toContain("measured (mean ± std)");
    await expect.poll(traceNames).toContain("MVA, inputs from the data");
    const names = await traceNames();
    expect(names.some((n) => n.startsWith("asymptotic bound (bottleneck: "))).toBe(true);
    // Five client counts measured (6 x clients per thread), the curve over N = 1..192.
    const measured = await page
      .getByTestId(FIGURE())
      .locator(".js-plotly-plot")
      .evaluate((gd) => (gd as unknown as { data: { x: number[] }[] }).data[0]?.x ?? []);
    expect(measured).toEqual([6, 24, 48, 96, 192]);
    expect((await curveY("MVA, inputs from the data")).length).toBe(192);
    // Inputs prefilled from the data with their source.
    const inputs = page.getByTestId("model-inputs");
    expect(await inputs.textContent()).toContain("middleware response - queue time at N = 6");
    expect(await page.getByTestId("bottleneck").textContent()).not.toBe("");
    // The utilization law per measured client count: U = busy / m, D = m U / X.
    const utilization = page.getByTestId("measured-utilization");
    const cells = await utilization
      .locator("tbody tr")
      .evaluateAll((rows) =>
        rows.map((r) => [...r.querySelectorAll("td")].map((td) => td.textContent ?? "")),
      );
    expect(cells.map((c) => Number(c[0]))).toEqual([6, 24, 48, 96, 192]);
    for (const [, station, m, busy, percent, x, demandUs, note] of cells) {
      expect(station).toBe("worker pool");
      const num = (text: string | undefined) => Number((text ?? "").replaceAll(",", ""));
      expect(num(percent)).toBeCloseTo((100 * num(busy)) / num(m), 0);
      // In µs like every time of the product; busy is shown to 2 decimals: within 5 µs.
      expect(num(demandUs)).toBeCloseTo((1e6 * num(busy)) / num(x), -1);
      // The seed's worker times exceed 16 workers at high load: flagged, not hidden.
      expect(note !== "").toBe(num(percent) > 100);
    }
    await screenshot(page, "models-tab");
  });

  it("takes the memcached service time from the utilization law when it is given", async () => {
    const before = await curveY("MVA, inputs from the data");
    // The seed's server time (4.5 ms at N = 6) makes memcached the bottleneck; a measured
    // utilization of 0.3 at X = 3,320/s gives S = U / (X V) = 0.09 ms instead.
    await page.getByLabel("measured memcached utilization").fill("0.3");
    await expect
      .poll(() => page.getByTestId("model-inputs").textContent())
      .toContain("utilization law S = U / (X V)");
    // The middleware layer limits now (the seed's net thread and worker demands per server tie
    // at 0.75 ms), no longer memcached.
    await expect
      .poll(() => page.getByTestId("bottleneck").textContent())
      .toMatch(/^(workers|net_thread)_/);
    const after = await curveY("MVA, inputs from the data");
    expect(after[after.length - 1]).toBeGreaterThan((before[before.length - 1] ?? 0) * 5);
  });

  it("moves the curve when the workers change (what-if beside the measured curve)", async () => {
    const fitted = await curveY("MVA, inputs from the data");
    const before = await page.getByTestId("model-throughput").textContent();
    await page.getByLabel("what-if workers").fill("1");
    await expect.poll(traceNames).toContain("MVA, what-if");
    await expect.poll(() => page.getByTestId("model-throughput").textContent()).not.toBe(before);
    const whatIf = await curveY("MVA, what-if");
    expect(whatIf.length).toBe(fitted.length);
    // One worker per middleware instead of 8: the layer saturates far lower.
    expect(whatIf[whatIf.length - 1]).toBeLessThan((fitted[fitted.length - 1] ?? 0) * 0.5);
    expect(page.url()).toContain("workers=1");
    // The fitted curve is still there, unchanged, beside the what-if one.
    expect(await curveY("MVA, inputs from the data")).toEqual(fitted);
    await screenshot(page, "models-what-if");
  });

  it("shows M/M/1 and M/M/m per configuration against the measured values", async () => {
    const table = page.getByTestId("queue-models-table");
    await table.waitFor();
    await expect.poll(() => table.locator("tbody tr").count()).toBe(5);
    // Configurations in words from the served legends, never "name=value".
    expect(await table.locator("tbody tr td").first().textContent()).not.toMatch(/[=_]/);
    await page.getByTestId(`figure-models-${stamp}-queue-models-response_time_s`).waitFor();
  });

  it("shows every time of the tab in µs, as its figures do", async () => {
    for (const id of [
      "model-inputs",
      "measured-utilization",
      "network-rows",
      "queue-models-table",
    ]) {
      expect(await page.getByTestId(id).textContent(), id).not.toMatch(/\bms\b/);
    }
    const heads = (id: string) => page.getByTestId(id).locator("thead").textContent();
    expect(await heads("queue-models-table")).toContain("E[r] (µs)");
    expect(await heads("network-rows")).toContain("measured R (µs)");
    expect(await heads("measured-utilization")).toContain("D = m U / X (µs)");
    expect(await page.getByTestId("model-inputs").textContent()).toContain("(µs, per worker)");
  });

  it("exports the model against measurement as the server's LaTeX table", async () => {
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByTestId("model-table-exports").getByRole("button", { name: "LaTeX" }).click(),
    ]);
    const tex = readFileSync(await download.path(), "utf8");
    expect(tex).toContain("\\toprule");
    expect(tex).toContain("Exact MVA of the network with inputs estimated from the data");
    expect(tex).toMatch(/\\label\{tab:[a-z0-9-]+:model-comparison-0\}/);
    // One row per measured client count, times in µs. The table is set twice (as given and
    // with stacked headers) for LaTeX to measure both: count the rows of the first.
    const first = tex.split("\\end{tabular}")[0] ?? "";
    expect(first).toContain("($\\mu$s)");
    expect(first.match(/^\d+ & /gm)?.length).toBe(5);
  });

  it("exports the queue models table from the server", async () => {
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByTestId("queue-table-exports").getByRole("button", { name: "CSV" }).click(),
    ]);
    const lines = readFileSync(await download.path(), "utf8")
      .trim()
      .split(/\r?\n/);
    expect(lines[0]).toContain("Response time E[r] M/M/m (µs)");
    expect(lines).toHaveLength(6); // the header and one row per configuration of the group
  });

  it("exports the model figure through the common export row", async () => {
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByTestId(FIGURE()).getByRole("button", { name: "PNG", exact: true }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`models-${stamp}-mva-throughput.png`);
    expect(
      readFileSync(await download.path())
        .subarray(1, 4)
        .toString(),
    ).toBe("PNG");
  });
});
