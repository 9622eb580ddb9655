// End-to-end: a latency-SLO search's experiment page shows each probe as it completes (runs
// turning succeeded appear with their merged-histogram percentile and verdict, by polling) and
// then the answer with its confidence interval. Probes are seeded through the worker's real
// path (seed.ts); their rates are set from the seeded throughput so one probe cannot carry its
// offered load (a miss) and the two below can.
import { execFileSync } from "node:child_process";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ExperimentPublic, SloSearchPublic } from "@/api";
import { api, BASE_URL, launch, screenshot } from "./browser";
import { seedRuns } from "./seed";

let browser: Browser;
let page: Page;
let exp: ExperimentPublic;
let rates: number[];

function sql(statement: string): void {
  const db = process.env.E2E_DATABASE ?? "";
  execFileSync("psql", ["-h", "127.0.0.1", "-U", "postgres", "-d", db, "-q", "-c", statement]);
}

function setRuns(rate: number, status: string): void {
  sql(`UPDATE runs SET status = '${status}' WHERE configuration_id = (SELECT id FROM
       configurations WHERE experiment_id = ${exp.id} AND values->>'rate_limit' = '${rate}')`);
}

beforeAll(async () => {
  exp = await api<ExperimentPublic>("/experiments", {
    method: "POST",
    body: JSON.stringify({
      name: `slo-search-${Date.now()}`,
      fixed: { servers: 1, middlewares: 1, ratio: "0:1", clients_per_thread: 2 },
      repetitions: 2,
      run_time_s: 20,
      warmup_s: 4,
      cooldown_s: 4,
      slo_search: { target_us: 1_000_000, percentile: 99, resolution_pct: 50 },
    }),
  });
  // Three probes (placeholder rates 1..3), seeded, then given rates from what they carried.
  for (const [i, r] of [1, 2, 3].entries())
    sql(`INSERT INTO configurations (experiment_id, index, values)
         VALUES (${exp.id}, ${i}, '{"rate_limit": ${r}}')`);
  const seeded = seedRuns(exp.id);
  const carried = Math.min(
    ...seeded.configurations.flatMap((c) => c.runs.map((r) => r.throughput)),
  );
  const perConnection = carried / 2; // 2 connections
  rates = [0.4, 0.9, 1.3].map((f) => Math.max(1, Math.floor(f * perConnection)));
  for (const [i, r] of rates.entries())
    sql(`UPDATE configurations SET values = '{"rate_limit": ${r}}'
         WHERE experiment_id = ${exp.id} AND values->>'rate_limit' = '${i + 1}'`);
  // Only the first probe has completed so far.
  setRuns(rates[1] ?? 0, "running");
  setRuns(rates[2] ?? 0, "queued");
  browser = await launch();
  const context = await browser.newContext({ viewport: { width: 1360, height: 1000 } });
  page = await context.newPage();
}, 240_000);

afterAll(async () => {
  await browser?.close();
});

describe("latency-SLO search page", () => {
  it("shows probes as they complete, then the answer with its confidence", async () => {
    await page.goto(`${BASE_URL}/experiments/${exp.id}`);
    const panel = page.getByTestId("slo-search");
    await panel.getByText("Latency-SLO search: p99 ≤ 1000 ms at 95 % confidence").waitFor();
    const rows = page.getByTestId("slo-probes").locator("tbody tr");
    await expect.poll(() => rows.count()).toBe(3);
    await expect.poll(() => page.locator('tr[data-verdict="meets"]').count()).toBe(1);
    await expect.poll(() => page.locator('tr[data-verdict="pending"]').count()).toBe(2);
    expect(await page.getByTestId("slo-state").innerText()).toContain("searching");
    await screenshot(page, "slo-search-probing");

    // The next probes complete: the page polls and shows them with their verdicts.
    setRuns(rates[1] ?? 0, "succeeded");
    setRuns(rates[2] ?? 0, "succeeded");
    const slo = () => api<SloSearchPublic>(`/experiments/${exp.id}/slo`);
    await expect
      .poll(async () => JSON.stringify(await slo()), { timeout: 30_000 })
      .toContain('"state":"done"');
    await page.getByTestId("slo-answer").waitFor({ timeout: 30_000 });
    await expect.poll(() => page.locator('tr[data-verdict="meets"]').count()).toBe(2);
    await expect.poll(() => page.locator('tr[data-verdict="misses"]').count()).toBe(1);
    const served = await slo();
    expect(served.state).toBe("done");
    expect(served.answer_rate_per_connection).toBe(rates[1]);
    const answer = await page.getByTestId("slo-answer").innerText();
    expect(answer).toContain(`${rates[1]}/s × 2 connections`);
    expect(answer).toContain("95 % interval from order statistics");
    await screenshot(page, "slo-search-answer");
  });
});
