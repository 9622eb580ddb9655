// End-to-end: the Models tab's model from measured demands, on a seeded experiment whose runs
// are given the monitor's window means (the utilization law: CPU = X D, D known), as the worker
// stores them (worker/runs/monitoring.py): host CPU, memcached and middleware processes.
import { execFileSync } from "node:child_process";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ExperimentPublic } from "@/api";
import { BASE_URL, launch, screenshot } from "./browser";
import { createSeeded, seedMonitorRows } from "./seed";

let browser: Browser;
let page: Page;
let exp: ExperimentPublic;

/** The monitor's rows of every run: per request 120 us of the 2-core host, memcached 30 us,
 * the middleware 50 us (percent of a core = 100 X D, X the run's client throughput). */
function seedMonitorDemands(experimentId: number): void {
  seedMonitorRows(experimentId, [
    ["host:local", "host_cpu_busy_pct", 100 * 120e-6],
    ["process:server:0", "process_cpu_pct", 100 * 30e-6],
    ["process:middleware:0", "process_cpu_pct", 100 * 50e-6],
  ]);
  const db = process.env.E2E_DATABASE;
  if (!db) throw new Error("E2E_DATABASE is not set: run through scripts/e2e.sh");
  // Each run's probe measured a 400 us client -> middleware round trip (a delay station).
  const probe = JSON.stringify({
    method: "tcp_connect",
    paths: [{ from_role: "client", to_role: "middleware", rtt_us: 400, samples_us: [400] }],
  });
  const update = `UPDATE runs SET hosts = coalesce(hosts, '{}'::jsonb) ||
    jsonb_build_object('network', '${probe}'::jsonb) WHERE experiment_id = ${experimentId}`;
  execFileSync("psql", ["-h", "127.0.0.1", "-U", "postgres", "-d", db, "-q", "-c", update]);
}

beforeAll(async () => {
  exp = await createSeeded(`demands-${Date.now()}`, [8], [1, 4, 16], { middlewares: 1 });
  seedMonitorDemands(exp.id);
  browser = await launch();
  const context = await browser.newContext({ viewport: { width: 1360, height: 900 } });
  page = await context.newPage();
});

afterAll(async () => {
  await browser?.close();
});

describe("model from measured demands", () => {
  it("shows the demands, the fit at every point, warnings and the bottleneck", async () => {
    await page.goto(`${BASE_URL}/experiments/${exp.id}?tab=models`);
    const panel = page.getByTestId("demand-model");
    await panel.waitFor();
    const stations = await panel
      .getByTestId("demand-stations")
      .locator("tbody tr")
      .allTextContents();
    expect(stations[0]).toContain("CPU of local");
    expect(stations[0]).toContain("120");
    expect(stations.some((s) => s.includes("memcached server:0") && s.includes("30"))).toBe(true);
    expect(await panel.getByTestId("demand-timers").textContent()).toContain("vs 50 CPU");
    expect(await panel.getByTestId("demand-delay").textContent()).toContain("∞400");
    await expect.poll(() => panel.getByTestId("demand-fit").locator("tbody tr").count()).toBe(3);
    expect(await panel.getByTestId("demand-bottleneck").textContent()).toContain("CPU of local");
    // Every measured point above the model's bound is named by a warning.
    const rows = await panel.getByTestId("demand-fit").locator("tbody tr.warning").count();
    const warnings = panel.getByTestId("demand-warnings");
    if (rows > 0) expect(await warnings.textContent()).toContain("above the model's bound");
    await panel.scrollIntoViewIfNeeded();
    await screenshot(page, "demand-model");
  });
});
