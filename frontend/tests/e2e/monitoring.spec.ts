// End-to-end: the machine monitoring panels show the served numbers. Runs seeded through the
// worker's real path, then one monitored host per run (worker/seeding/monitor.py: the
// utilization law on the clients' stored throughput, through the worker's own summaries).
// The run page's words equal the window means of the series API's instances[].metrics; the
// Results tab's machines table equals GET /experiments/{id}/machines, cell by cell; and the
// machines API's host CPU is the utilization law on the results API's throughput.
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { MachinesPublic, ResultsPublic, RunSeriesPublic, RunsPublic } from "@/api";
import { api, BASE_URL, launch, screenshot } from "./browser";
import { createSeeded, runPythonModule, type SeededExperiment } from "./seed";

// What worker/seeding/monitor.py seeds per request (its inputs, not its results).
const D_HOST_S = 120e-6;
const CORES = 2;

let browser: Browser;
let page: Page;
let exp: SeededExperiment;

function seedMonitor(experimentId: number): { run_id: number; sources: string[] }[] {
  const out = runPythonModule("worker.scripts.seed_monitor_runs", [
    "--experiment",
    String(experimentId),
  ]);
  return JSON.parse(out);
}

/** Mean of an instance's seconds inside [lo, hi) of the run's clock (NaN/null skipped). */
function windowMean(offset: number, values: (number | null)[], lo: number, hi: number) {
  const inside = values.filter(
    (v, i): v is number =>
      v !== null && !Number.isNaN(v) && lo <= Math.round(offset) + i && Math.round(offset) + i < hi,
  );
  return inside.reduce((a, b) => a + b, 0) / inside.length;
}

/** The numbers in a text, in order ("1,234.5" -> 1234.5). */
function numbers(text: string): number[] {
  return [...text.matchAll(/-?\d[\d,]*(?:\.\d+)?/g)].map((m) => Number(m[0].replace(/,/g, "")));
}

/** `shown` is `value` rounded to `digits` decimals. */
function expectRounded(shown: number, value: number, digits: number) {
  expect(Math.abs(shown - value)).toBeLessThanOrEqual(0.5 * 10 ** -digits + 1e-9);
}

beforeAll(async () => {
  exp = await createSeeded(`monitoring-${Date.now()}`, [8, 16], [1, 8]);
  const seeded = seedMonitor(exp.id);
  expect(seeded.length).toBe(exp.seeded.runs);
  expect(seeded[0]?.sources).toEqual([
    "host:local",
    "net:local:lo",
    "process:server:0",
    "process:middleware:0",
  ]);
  browser = await launch();
  page = await browser.newPage({ viewport: { width: 1360, height: 1200 } });
});

afterAll(async () => {
  await browser?.close();
});

describe("machine monitoring panels", () => {
  it("shows on the run page the window means of the series API", async () => {
    const runs = await api<RunsPublic>(`/experiments/${exp.id}/runs`);
    const run = runs.data.find((r) => r.status === "succeeded");
    if (!run) throw new Error("no succeeded run");
    const series = (source: string) =>
      api<RunSeriesPublic>(`/experiments/${exp.id}/runs/${run.id}/series?source=${source}`);
    const [host, processes, net] = await Promise.all(
      ["host", "process", "net"].map((s) => series(s)),
    );
    if (!host || !processes || !net) throw new Error("series missing");
    const lo = host.window_start_s;
    const hi = host.window_end_s;
    const mean = (i: RunSeriesPublic["instances"][number], metric: string) =>
      windowMean(i.offset_s, i.metrics?.[metric] ?? [], lo, hi);
    const hostInstance = host.instances[0];
    if (!hostInstance) throw new Error("no host series");
    const busy = mean(hostInstance, "host_cpu_busy_pct");
    const ours = processes.instances.reduce((a, i) => a + mean(i, "process_cpu_pct"), 0);
    const lines = net.instances.map(
      (i) => mean(i, "net_rx_bytes_per_s") + mean(i, "net_tx_bytes_per_s"),
    );
    const busiest = Math.max(...lines);

    await page.goto(`${BASE_URL}/runs/${run.id}`);
    const words = page.getByTestId("run-machines-words");
    await words.waitFor({ timeout: 30_000 });
    const [hostLine, netLine] = await words.locator("li").allTextContents();
    expect(hostLine).toMatch(
      /^host:local: [\d.]+ of 2 cores busy \(\d+ %\), (not )?saturated; mcscope's processes [\d.]+ cores of it$/,
    );
    const [shownBusy, shownCores, shownPct, shownOurs] = numbers(hostLine ?? "");
    expectRounded(shownBusy ?? Number.NaN, busy / 100, 2);
    expect(shownCores).toBe(CORES);
    expectRounded(shownPct ?? Number.NaN, busy / CORES, 0);
    expectRounded(shownOurs ?? Number.NaN, ours / 100, 2);
    expect(netLine).toMatch(/^busiest interface net:local:lo: [\d.]+ MB\/s in \+ out$/);
    const shownNet = numbers(netLine ?? "").at(-1) ?? Number.NaN;
    // Three significant digits.
    expect(Math.abs(shownNet - busiest / 1e6) / (busiest / 1e6)).toBeLessThan(0.005);
    await screenshot(page, "monitoring-run");
  });

  it("shows in the Results tab's machines table the machines API's numbers", async () => {
    const machines = await api<MachinesPublic>(`/experiments/${exp.id}/machines`);
    const results = await api<ResultsPublic>(`/experiments/${exp.id}/results`);
    expect(machines.data.length).toBe(4);
    // The utilization law on what was seeded: U = X D, X the results table's throughput.
    for (const m of machines.data) {
      const x = results.data.find((r) => r.configuration_id === m.configuration_id)?.metrics
        .throughput_per_s.mean;
      expect(x).toBeGreaterThan(0);
      const expected = 100 * (x ?? 0) * D_HOST_S;
      expect(Math.abs((m.host_cpu_busy_pct ?? 0) - expected) / expected).toBeLessThan(0.01);
      expect(m.host_cpus).toBe(CORES);
    }

    await page.goto(`${BASE_URL}/experiments/${exp.id}?tab=results`);
    const table = page.getByTestId("machines-table");
    await table.waitFor({ timeout: 30_000 });
    const heads = await table.locator("thead th").allTextContents();
    const roles = heads.slice(9, -2);
    expect(roles.sort()).toEqual(
      Object.keys(machines.data[0]?.process_cpu_pct_by_role ?? {}).sort(),
    );
    const rows = table.locator("tbody tr");
    expect(await rows.count()).toBe(machines.data.length);
    for (const [i, m] of machines.data.entries()) {
      const cells = await rows.nth(i).locator("td").allTextContents();
      expect(cells[0]).toMatch(new RegExp(`^${m.index}: `));
      expect(Number(cells[1])).toBe(m.host_cpus);
      const cores = [
        m.host_cpu_busy_pct,
        m.host_cpu_user_pct,
        m.host_cpu_system_pct,
        m.host_cpu_iowait_pct,
        m.host_cpu_steal_pct,
      ];
      for (const [k, pct] of cores.entries()) {
        expectRounded(numbers(cells[2 + k] ?? "")[0] ?? Number.NaN, (pct ?? 0) / 100, 2);
      }
      expectRounded(numbers(cells[7] ?? "")[0] ?? Number.NaN, 100 * (m.host_utilization ?? 0), 0);
      const [processCores, processShare] = numbers(cells[8] ?? "");
      expectRounded(processCores ?? Number.NaN, (m.process_cpu_pct ?? 0) / 100, 2);
      expectRounded(processShare ?? Number.NaN, 100 * (m.process_utilization ?? 0), 0);
      for (const [k, role] of roles.entries()) {
        const pct = m.process_cpu_pct_by_role[role] ?? Number.NaN;
        expectRounded(numbers(cells[9 + k] ?? "")[0] ?? Number.NaN, pct / 100, 2);
      }
      const network = numbers(cells.at(-2) ?? "")[0] ?? Number.NaN;
      expectRounded(network, (m.net_bytes_per_s ?? 0) / 1e6, 3);
      expect(cells.at(-1)).toBe(m.summary);
    }
    await screenshot(page, "monitoring-results");
  });
});
