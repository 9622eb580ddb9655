// The worker's real path under the UI: runs seeded by the worker's own parser, summaries and
// store (worker/scripts/seed_fixture_runs.py) from a real memtier_benchmark JSON output, so
// this test fails when the worker -> database -> API -> page path changes. The expected
// figure is read straight from that file: the mean per-second count over the stable window,
// two client instances summed.
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ExperimentPublic } from "@/api";
import { api, BASE_URL, launch, screenshot } from "./browser";
import { runPythonModule } from "./seed";

const ROOT = resolve(__dirname, "../../..");
const OUTPUT = resolve(ROOT, "worker/tests/fixtures/memtier_ratio1-1_c2_t1_d128_5s.json");
const INSTANCES = 2;
const WARMUP_S = 1;
const COOLDOWN_S = 1;
const RUN_TIME_S = 5;

let browser: Browser;
let page: Page;
let exp: ExperimentPublic;

/** Mean over the stable window of memtier's per-second request counts (Totals). */
function expectedThroughput(): number {
  const doc = JSON.parse(readFileSync(OUTPUT, "utf8"));
  const series = doc["ALL STATS"].Totals["Time-Serie"] as Record<string, { Count: number }>;
  const counts: number[] = [];
  for (let s = WARMUP_S; s < RUN_TIME_S - COOLDOWN_S; s++)
    counts.push(series[String(s)]?.Count ?? 0);
  return (INSTANCES * counts.reduce((a, b) => a + b, 0)) / counts.length;
}

beforeAll(async () => {
  exp = await api<ExperimentPublic>("/experiments", {
    method: "POST",
    body: JSON.stringify({
      name: `real-path-${Date.now()}`,
      template: "custom",
      factors: { workers: [8, 16] },
      // As the output was measured: memtier with 1 thread x 2 connections per instance, here
      // two instances on one client machine (N = 4), so the interactive law holds too.
      fixed: {
        servers: 1,
        middlewares: 1,
        ratio: "1:1",
        value_size: 128,
        load_generator: "memtier",
        client_machines: 1,
        instances_per_machine: INSTANCES,
        threads_per_instance: 1,
        clients_per_thread: 2,
      },
      repetitions: 2,
      run_time_s: RUN_TIME_S,
      warmup_s: WARMUP_S,
      cooldown_s: COOLDOWN_S,
    }),
  });
  const stored = runPythonModule("worker.scripts.seed_fixture_runs", [
    "--experiment",
    String(exp.id),
    "--output",
    OUTPUT,
    "--instances",
    String(INSTANCES),
  ]);
  expect(Number(stored.trim())).toBe(4);
  browser = await launch();
  page = await (await browser.newContext({ viewport: { width: 1360, height: 900 } })).newPage();
}, 120_000);

afterAll(async () => {
  await browser?.close();
});

describe("results through the worker's real path", () => {
  it("shows the throughput the tool measured over the stable window, instances summed", async () => {
    await page.goto(`${BASE_URL}/experiments/${exp.id}`);
    const row = page.getByTestId("summary-table").locator("tbody tr").first();
    await row.waitFor();
    const cells = await row.locator("td").allTextContents();
    const expected = expectedThroughput();
    // Cells read "mean ± std" with thousands separators; identical repetitions: std 0.
    const shown = cells
      .map((c) => /^([\d,]+(?:\.\d+)?) ± 0$/.exec(c.trim())?.[1])
      .filter((v): v is string => v !== undefined)
      .map((v) => Number(v.replaceAll(",", "")));
    expect(
      shown.some((v) => Math.abs(v - expected) <= 0.05),
      `${cells.join(" | ")} vs ${expected}`,
    ).toBe(true);
    // N = 4 connections and R = 34.4 us: the interactive law expects what was measured.
    const law = page.getByTestId("interactive-law");
    for (const d of await law.locator("tbody tr td:last-child").allTextContents())
      expect(Math.abs(Number(d))).toBeLessThan(5);
    await screenshot(page, "real-path-results");
  });
});
