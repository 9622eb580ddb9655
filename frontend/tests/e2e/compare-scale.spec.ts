// Scale: an experiment of 2,000 configurations (6,000 seeded runs) on the Compare page. The
// parallel coordinates (the server's figure) draw every configuration and brushing still
// filters them; no timing is asserted (the machines are shared and noisy): the compare figure
// endpoint's times at this size are printed for the record, `make bench-compare` measures the
// other endpoints. The first REAL configurations' runs go through the worker's real path, the
// others copy their stored rows (seed.ts); one client machine straight to the servers keeps
// 6,000 runs' rows few.
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BASE_URL, launch, screenshot, TOKEN } from "./browser";
import { createSeeded, type SeededExperiment } from "./seed";

let browser: Browser;
let page: Page;
let big: SeededExperiment;
const WAIT_MS = 120_000;
const POLL = { timeout: WAIT_MS };
const WORKERS = Array.from({ length: 40 }, (_, i) => i + 1);
const CLIENTS = Array.from({ length: 50 }, (_, i) => i + 1);
const REAL = 4;

beforeAll(async () => {
  big = await createSeeded(
    `scale-2000-${Date.now()}`,
    WORKERS,
    CLIENTS,
    { middlewares: 0, client_machines: 1 },
    { real: REAL },
  );
  expect(big.seeded.runs).toBe(6000);
  browser = await launch();
  page = await (await browser.newContext({ viewport: { width: 1400, height: 1000 } })).newPage();
  page.setDefaultTimeout(WAIT_MS);
}, 300_000);

afterAll(async () => {
  await browser?.close();
});

/** Every drawn dimension's constraint range, by axis title. */
async function constraintRanges(p: Page): Promise<Record<string, unknown>> {
  return p
    .getByTestId("parcoords")
    .locator(".js-plotly-plot")
    .evaluate((gd) => {
      type Dim = { label: string; constraintrange?: unknown };
      const dims = (gd as unknown as { data: { dimensions: Dim[] }[] }).data[0]?.dimensions ?? [];
      return Object.fromEntries(dims.map((d) => [d.label, d.constraintrange ?? null]));
    });
}

/** The plot lies inside its card, under the card's header, and above the configuration table. */
async function expectPlotInsideCard(p: Page): Promise<void> {
  const card = await p.getByTestId("parcoords").boundingBox();
  const header = await p.getByTestId("parcoords").locator(".section-header").boundingBox();
  // The drawing itself: Plotly's element can collapse to no height while its SVG, absolutely
  // placed, still draws 420 px over what follows.
  const plot = await p.getByTestId("parcoords").locator("svg.main-svg").first().boundingBox();
  const table = await p.getByTestId("configuration-table").boundingBox();
  if (!card || !header || !plot || !table) throw new Error("compare page not drawn");
  const px = 1; // sub-pixel rounding of the boxes
  expect(plot.y).toBeGreaterThanOrEqual(header.y + header.height - px);
  expect(plot.x).toBeGreaterThanOrEqual(card.x - px);
  expect(plot.x + plot.width).toBeLessThanOrEqual(card.x + card.width + px);
  expect(plot.y + plot.height).toBeLessThanOrEqual(card.y + card.height + px);
  expect(plot.y + plot.height).toBeLessThanOrEqual(table.y + px);
}

describe("compare at 2,000 configurations", () => {
  it("draws every configuration in the parallel coordinates and brushes them", async () => {
    await page.goto(`${BASE_URL}/compare`);
    await page.getByLabel(`compare ${big.name}`, { exact: true }).check();
    const parcoords = page.getByTestId("parcoords");
    await parcoords.locator(".js-plotly-plot").waitFor();
    const hint = parcoords.locator("span.hint");
    await expect
      .poll(() => hint.textContent(), POLL)
      .toBe("2000 of 2000 configurations (drag along an axis to filter)");
    const lines = await parcoords
      .locator(".js-plotly-plot")
      .evaluate(
        (gd) =>
          (gd as unknown as { data: { dimensions: { values: number[] }[] }[] }).data[0]
            ?.dimensions[0]?.values.length,
      );
    expect(lines).toBe(2000);
    // The Experiments panel stands at the top of its column, and stays in sight when the
    // page is scrolled down to the parallel coordinates.
    const side = page.locator("aside.compare-side");
    await page.evaluate(() => window.scrollTo(0, 0));
    const top = await side.boundingBox();
    const main = await page.locator(".main-column").boundingBox();
    if (!top || !main) throw new Error("compare columns not drawn");
    expect(Math.abs(top.y - main.y)).toBeLessThanOrEqual(1);
    await parcoords.scrollIntoViewIfNeeded();
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(500);
    const scrolled = await side.boundingBox();
    if (!scrolled) throw new Error("side panel not drawn");
    expect(scrolled.y).toBeGreaterThanOrEqual(0);
    expect(scrolled.y + scrolled.height).toBeLessThanOrEqual(1000);
    await screenshot(page, "compare-2000-configurations");
    await expectPlotInsideCard(page);
    // Fifty levels of a factor read as a range.
    const parameters = await page.getByTestId("parameters-table").textContent();
    expect(parameters).toContain("varied: 1–50");
    expect(parameters).toContain("varied: 1–40");
    // Brush the worker-threads axis from its middle past its top: workers 20..40 (the brush
    // snaps to cover the level under its lower end).
    const axis = parcoords
      .locator("g.y-axis")
      .filter({ has: page.locator("text.axis-title", { hasText: /^Worker threads$/ }) })
      .locator("rect.background");
    const box = await axis.boundingBox();
    if (!box) throw new Error("worker-threads axis not drawn");
    const x = box.x + box.width / 2;
    await page.mouse.move(x, box.y + box.height * 0.5);
    await page.mouse.down();
    await page.mouse.move(x, box.y + box.height * 0.25, { steps: 5 });
    await page.mouse.move(x, box.y - 20, { steps: 5 });
    await page.mouse.up();
    // 50 client levels per worker level: the brushed count is a multiple of 50, about half.
    await expect
      .poll(() => hint.textContent(), POLL)
      .toMatch(/^\d+ of 2000 configurations brushed$/);
    const brushed = Number((await hint.textContent())?.split(" ")[0]);
    expect(brushed % 50).toBe(0);
    // The server's count is the lines inside the range the drag drew on the axis.
    const inside = await parcoords.locator(".js-plotly-plot").evaluate((gd) => {
      type Dim = { label: string; values: number[]; constraintrange?: number[] | number[][] };
      const dims = (gd as unknown as { data: { dimensions: Dim[] }[] }).data[0]?.dimensions ?? [];
      const workers = dims.find((d) => d.label.startsWith("Worker threads"));
      const raw = workers?.constraintrange ?? [];
      const ranges = (Array.isArray(raw[0]) ? raw : [raw]) as number[][];
      const lo = Math.min(...ranges.map((r) => r[0] ?? 0));
      const hi = Math.max(...ranges.map((r) => r[1] ?? 0));
      return (workers?.values ?? []).filter((v) => v >= lo && v <= hi).length;
    });
    expect(brushed).toBe(inside);
    // A drag over the upper half of the axis brushes about the upper half of its levels.
    expect(brushed).toBeGreaterThanOrEqual(900);
    expect(brushed).toBeLessThanOrEqual(1100);
    await screenshot(page, "compare-2000-brushed");
    await expectPlotInsideCard(page);
    // Any later resize keeps it there (Plotly's resize drops layout.height: the element's
    // height has to hold it).
    const svg = parcoords.locator("svg.main-svg").first();
    const wide = (await svg.boundingBox())?.width ?? 0;
    await page.setViewportSize({ width: 1300, height: 1000 });
    // Plotly redraws (narrower) once its debounced resize ran: then the boxes are final.
    await expect
      .poll(async () => (await svg.boundingBox())?.width ?? wide, POLL)
      .toBeLessThan(wide);
    await expectPlotInsideCard(page);
    await page.setViewportSize({ width: 1400, height: 1000 });
    // The brush is URL state: a reload shows the same brushed count and lines.
    // Ends of 6 digits, the top cut to the axis' maximum (the drag went past it).
    expect(new URL(page.url()).searchParams.get("brush")).toMatch(/^workers:\d+(\.\d{1,4})?_40$/);
    const drawn = await constraintRanges(page);
    await page.reload();
    await parcoords.locator(".js-plotly-plot").waitFor();
    await expect
      .poll(() => hint.textContent(), POLL)
      .toBe(`${brushed} of 2000 configurations brushed`);
    expect(await constraintRanges(page)).toEqual(drawn);
    await expect.poll(() => page.getByTestId("configuration-row").count(), POLL).toBeGreaterThan(0);
    await expectPlotInsideCard(page);
    await screenshot(page, "compare-2000-brushed-reloaded");
  }, 300_000);

  it("serves the compare figures at this size (times printed, not asserted)", async () => {
    const body = {
      experiment_ids: [big.id],
      x: "clients_per_thread",
      group_by: "workers",
      brush: { workers: [[21, 40]] },
    };
    for (const name of ["compare-groups.json", "compare-parcoords.json", "compare-groups.pdf"]) {
      const times: number[] = [];
      let bytes = 0;
      for (let i = 0; i < 3; i++) {
        const t0 = performance.now();
        const res = await fetch(`${BASE_URL}/api/v1/compare/figures/${name}`, {
          method: "POST",
          headers: { "Content-Type": "application/json", Authorization: `Bearer ${TOKEN}` },
          body: JSON.stringify(body),
        });
        bytes = (await res.arrayBuffer()).byteLength;
        times.push(performance.now() - t0);
        expect(res.status).toBe(200);
      }
      console.log(
        `POST /compare/figures/${name} (2000 configurations): ${times.map((t) => t.toFixed(0)).join(", ")} ms, ${bytes} bytes`,
      );
    }
  }, 300_000);
});
