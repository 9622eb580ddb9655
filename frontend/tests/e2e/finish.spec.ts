// End-to-end: an experiment finishes while its page is open; every panel (summary, breakdown,
// interactive law, factorial, percentiles, histogram, series) completes without a reload.
import { execFileSync } from "node:child_process";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ConfigurationsPublic, ExperimentPublic, RunsPublic } from "@/api";
import { api, BASE_URL, launch, screenshot } from "./browser";
import { publishLiveEvent } from "./live";
import { createSeeded } from "./seed";

let browser: Browser;
let page: Page;
let exp: ExperimentPublic;
let late: number[];

function sql(statement: string): void {
  const db = process.env.E2E_DATABASE ?? "";
  execFileSync("psql", ["-h", "127.0.0.1", "-U", "postgres", "-d", db, "-q", "-c", statement]);
}

/** The worker's run event, when Redis is there (the page also polls the experiment). */
function publishRunEvent(runId: number): void {
  const url = process.env.E2E_REDIS_URL;
  if (!url) return;
  publishLiveEvent(url, exp.id, { type: "run", run_id: runId, status: "succeeded", error: null });
}

beforeAll(async () => {
  exp = await createSeeded(`finish-${Date.now()}`, [8, 16], [1, 4]);
  // Rewind: only configuration 0 has finished; the runs of the others are still running.
  const configs = await api<ConfigurationsPublic>(`/experiments/${exp.id}/configurations`);
  const first = configs.data.find((c) => c.index === 0)?.id;
  const runs = await api<RunsPublic>(`/experiments/${exp.id}/runs`);
  late = runs.data.filter((r) => r.configuration_id !== first).map((r) => r.id);
  sql(
    // results_attempt NULL too: a first attempt still running has stored nothing (a re-run
    // keeps its older attempt's results in use, and they would show).
    `UPDATE runs SET status = 'running', finished_at = NULL, heartbeat_at = now(),
     results_attempt = NULL WHERE id IN (${late.join(",")})`,
  );
  browser = await launch();
  page = await browser.newPage({ viewport: { width: 1360, height: 900 } });
});

afterAll(async () => {
  await browser?.close();
});

async function measuredRows(): Promise<number> {
  return page
    .getByTestId("summary-table")
    .locator("tbody tr")
    .evaluateAll((rows) => rows.filter((r) => !r.textContent?.includes("–")).length);
}

describe("an experiment finishing under the user's eyes", () => {
  it("shows partial results in words while runs are still going", async () => {
    await page.goto(`${BASE_URL}/experiments/${exp.id}`);
    expect(await page.locator("h1 .badge").textContent()).toBe("running");
    await page.getByTestId("summary-table").waitFor();
    expect(await measuredRows()).toBe(1);
    await page.getByTestId("factorial-unavailable").waitFor();
    await page.getByTestId("figure-breakdown").locator(".js-plotly-plot").waitFor();
    await expect
      .poll(() => page.getByTestId("figure-breakdown").locator("g.xtick").count())
      .toBe(1);
    await expect
      .poll(() => page.getByTestId("interactive-law").locator("tbody tr").count())
      .toBe(1);
    const progress = await page.getByTestId("experiment-progress").textContent();
    expect(progress).toContain("3 of 12 runs ended");
    await screenshot(page, "finish-partial");
  });

  it("completes every panel when the runs finish, without a reload", async () => {
    const navigations: string[] = [];
    page.on("framenavigated", (f) => navigations.push(f.url()));
    sql(
      `UPDATE runs SET status = 'succeeded', finished_at = now(), results_attempt = attempt
       WHERE id IN (${late.join(",")})`,
    );
    for (const id of late) publishRunEvent(id);

    await expect
      .poll(() => page.locator("h1 .badge").textContent(), { timeout: 20_000 })
      .toBe("finished");
    await expect.poll(measuredRows, { timeout: 20_000 }).toBe(4);
    await expect
      .poll(() => page.getByTestId("figure-breakdown").locator("g.xtick").count())
      .toBe(4);
    await expect
      .poll(() => page.getByTestId("interactive-law").locator("tbody tr").count())
      .toBe(4);
    await page.getByTestId("factorial").waitFor();
    expect(await page.getByTestId("factorial-unavailable").count()).toBe(0);
    expect(
      await page.getByTestId("figure-histogram").locator("select[name=config] option").count(),
    ).toBe(4);
    await expect
      .poll(() => page.getByTestId("figure-time-series").locator("select[name=run] option").count())
      .toBe(12);
    expect(await page.getByTestId("experiment-progress").textContent()).toContain(
      "12 of 12 runs ended",
    );
    expect(navigations).toEqual([]);
    await screenshot(page, "finish-complete");
  });
});

describe("an experiment whose runs all failed", () => {
  it("says no run succeeded and why, not that results are coming", async () => {
    const failed = await createSeeded(`failed-${Date.now()}`, [8], [1, 4]);
    sql(
      `UPDATE runs SET status = 'failed', error = 'memcached 127.0.0.1:11211 refused the connection',
       results_attempt = NULL WHERE experiment_id = ${failed.id}`,
    );
    await page.goto(`${BASE_URL}/experiments/${failed.id}`);
    await page.getByText("No run succeeded").waitFor();
    const total = (await api<RunsPublic>(`/experiments/${failed.id}/runs`)).count;
    expect(total).toBeGreaterThan(1);
    await page.getByText(`${total} runs failed: the runs table says why.`).waitFor();
    expect(await page.getByText("No results yet").count()).toBe(0);
    expect(await page.getByTestId("experiment-progress").textContent()).toContain(
      `${total} of ${total} runs ended (${total} failed)`,
    );
    await screenshot(page, "results-all-failed");
  });
});
