// End-to-end: live progress over server-sent events, fed through Redis as the worker feeds it.
import type { Browser, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ExperimentPublic, RunsPublic } from "@/api";
import type { FigureJson } from "@/lib/hooks/useServerFigureQuery";
import { api, BASE_URL, launch, screenshot } from "./browser";
import { publishLiveEvent } from "./live";
import { runSeedSql } from "./seed";

// Redis is a required part of the stack: without it this spec fails saying so, never skips.
const REDIS_URL = process.env.E2E_REDIS_URL ?? "";
let browser: Browser;
let page: Page;
let exp: ExperimentPublic;

function publish(payload: object): void {
  publishLiveEvent(REDIS_URL, exp.id, payload);
}

interface Trace {
  name?: string;
  x?: unknown;
  y?: unknown;
}

/** The visible traces' names and points (instances hidden in the legend left out). */
function traces(fig: { data: unknown[] }): Trace[] {
  return (fig.data as (Trace & { visible?: unknown })[])
    .filter((t) => t.visible !== "legendonly")
    .map(({ name, x, y }) => ({
      name,
      x: Array.from(x as number[]),
      y: Array.from(y as number[]),
    }));
}

/** What the page drew: the graph div's own data (Plotly keeps it on the element). */
async function drawn(plot: Locator): Promise<Trace[]> {
  const data = await plot.evaluate((el) => (el as HTMLElement & { data: unknown[] }).data);
  return traces({ data });
}

async function xRange(plot: Locator): Promise<number[]> {
  return plot.evaluate((el) =>
    Array.from((el as HTMLElement & { layout: { xaxis: { range: number[] } } }).layout.xaxis.range),
  );
}

describe("live progress", () => {
  beforeAll(async () => {
    if (!REDIS_URL) throw new Error("E2E_REDIS_URL is not set: run through scripts/e2e.sh");
    exp = await api<ExperimentPublic>("/experiments", {
      method: "POST",
      body: JSON.stringify({
        name: `live-${Date.now()}`,
        factors: { workers: [8, 16] },
        repetitions: 1,
      }),
    });
    runSeedSql(exp.id, "tests/e2e/seed_running.sql");
    browser = await launch();
    page = await browser.newPage({ viewport: { width: 1360, height: 900 } });
  });

  afterAll(async () => {
    await browser?.close();
  });

  it("shows per-second throughput of the running run as the worker publishes it", async () => {
    const runs = await api<RunsPublic>(`/experiments/${exp.id}/runs?status=running`);
    const runId = runs.data[0]?.id ?? 0;
    await page.goto(`${BASE_URL}/experiments/${exp.id}`);
    expect(await page.locator("h1 .badge").textContent()).toBe("running");
    const panel = page.getByTestId("live-progress");
    await panel.getByText("connected (server-sent events)").waitFor();
    for (const [t, ops] of [
      [1, 2900],
      [2, 2950],
      [3, 2940],
    ] as const) {
      publish({
        type: "progress",
        run_id: runId,
        source: "client:0",
        elapsed_s: t,
        run_time_s: 90,
        ops_per_sec: ops,
        mean_latency_us: 8160,
      });
    }
    const row = page.getByTestId(`live-run-${runId}`);
    await expect
      .poll(async () => (await row.textContent()) ?? "", { timeout: 10_000 })
      .toContain("3 / 90 s");
    expect(await row.textContent()).toContain("2,940");
    await screenshot(page, "live");
  });

  it("draws the server's live figure and redraws it in place as seconds arrive", async () => {
    const runs = await api<RunsPublic>(`/experiments/${exp.id}/runs?status=running`);
    const runId = runs.data[0]?.id ?? 0;
    const served = await api<FigureJson>(
      `/experiments/${exp.id}/figures/live.json?run_id=${runId}&style=screen`,
    );
    const plot = page.getByTestId(`live-figure-${runId}`).locator(".js-plotly-plot");
    await plot.waitFor();
    // The drawn traces are the server's: the time-series figure over the seconds so far.
    await expect.poll(() => drawn(plot), { timeout: 10_000 }).toEqual(traces(served));
    expect(traces(served)).toEqual([
      { name: "throughput", x: [1, 2, 3], y: [2900, 2950, 2940] },
      { name: "response time", x: [1, 2, 3], y: [8160, 8160, 8160] },
    ]);
    await screenshot(page, "live-figure");
    // Zoom in on the x axis (drag across the plot), then a new second arrives.
    await plot.evaluate((el) => {
      (el as HTMLElement & { mark?: boolean }).mark = true;
    });
    const box = await plot.locator(".nsewdrag").first().boundingBox();
    if (!box) throw new Error("no drag layer on the live figure");
    await page.mouse.move(box.x + box.width * 0.1, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width * 0.3, box.y + box.height / 2, { steps: 5 });
    await page.mouse.up();
    const zoomed = await xRange(plot);
    expect(zoomed[1]).toBeLessThan(90);
    publish({
      type: "progress",
      run_id: runId,
      source: "client:0",
      elapsed_s: 4,
      run_time_s: 90,
      ops_per_sec: 2960,
      mean_latency_us: 8160,
    });
    await expect
      .poll(async () => (await drawn(plot))[0]?.y, { timeout: 10_000 })
      .toEqual([2900, 2950, 2940, 2960]);
    // Redrawn with Plotly.react: the same element (no flicker) and the user's zoom kept.
    expect(await plot.evaluate((el) => (el as HTMLElement & { mark?: boolean }).mark)).toBe(true);
    expect(await xRange(plot)).toEqual(zoomed);
  });

  it("drops a run from the live view when the worker reports it finished", async () => {
    const runs = await api<RunsPublic>(`/experiments/${exp.id}/runs?status=running`);
    const runId = runs.data[0]?.id ?? 0;
    publish({ type: "run", run_id: runId, status: "succeeded", error: null });
    await expect
      .poll(() => page.getByTestId(`live-run-${runId}`).count(), { timeout: 10_000 })
      .toBe(0);
  });
});
