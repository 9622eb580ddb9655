// End-to-end: live progress over server-sent events, fed through Redis as the worker feeds it.
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ExperimentPublic, RunsPublic } from "@/api";
import { api, BASE_URL, launch, screenshot } from "./browser";
import { publishLiveEvent } from "./live";
import { runSeedSql } from "./seed";

const REDIS_URL = process.env.E2E_REDIS_URL;
let browser: Browser;
let page: Page;
let exp: ExperimentPublic;

function publish(payload: object): void {
  publishLiveEvent(REDIS_URL ?? "", exp.id, payload);
}

describe.skipIf(!REDIS_URL)("live progress", () => {
  beforeAll(async () => {
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
    await panel.locator(".js-plotly-plot").waitFor();
    await screenshot(page, "live");
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
