// The one browser test on a real run (every other spec reads experiments seeded straight into
// the database): an experiment made through the API on the local testbed (scripts/e2e.sh's own
// sshd on 127.0.0.1), started with the page's Start button, run by a real Celery worker with
// real memcached and memaslap, finishes under the user's eyes, and its summary shows the
// throughput the API serves for it. The shortest run the API takes (2 s): the path is the claim.
import { execFileSync } from "node:child_process";
import { resolve } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ExperimentPublic, ResultsPublic } from "@/api";
import { formatNumber } from "@/lib/format";
import { api, BASE_URL, launch, screenshot } from "./browser";
import { type CeleryWorker, startCeleryWorker } from "./celery";

const ROOT = resolve(__dirname, "../../..");

let browser: Browser;
let page: Page;
let worker: CeleryWorker | undefined;
let exp: ExperimentPublic;

beforeAll(async () => {
  const log = process.env.E2E_RUN_WORKER_LOG;
  if (!log) throw new Error("E2E_RUN_WORKER_LOG is not set: run through scripts/e2e.sh");
  // Only this spec's run: the specs before it left run messages nobody is meant to carry out
  // (measured: an SLO search's probe ran first, 95 s), so the run queue is emptied first.
  const queue = process.env.MCSCOPE_RUNS_QUEUE ?? "";
  const redisUrl = process.env.MCSCOPE_REDIS_URL ?? "redis://127.0.0.1:6379/0";
  execFileSync(`${ROOT}/.venv/bin/python`, [
    "-c",
    "import redis,sys; redis.Redis.from_url(sys.argv[1]).delete(sys.argv[2])",
    redisUrl,
    queue,
  ]);
  // The seeded specs leave runs "queued" or "running" that no worker holds (the states their
  // pages show); the worker's recovery at start would re-queue them and run them for real
  // before this one (measured: an SLO search's probe, 94 s). Cancelled here, as a user would.
  const db = process.env.E2E_DATABASE;
  if (!db) throw new Error("E2E_DATABASE is not set: run through scripts/e2e.sh");
  execFileSync("psql", [
    ...["-h", "127.0.0.1", "-U", "postgres", "-d", db, "-q", "-c"],
    "UPDATE runs SET status = 'cancelled', finished_at = now() WHERE status IN ('queued', 'running')",
  ]);
  worker = await startCeleryWorker([""], "runs", log);
  exp = await api<ExperimentPublic>("/experiments", {
    method: "POST",
    body: JSON.stringify({
      name: `smoke-${Date.now()}`,
      description: "one real run on the local testbed",
      template: "custom",
      factors: { clients_per_thread: [2] },
      fixed: {
        servers: 1,
        middlewares: 1,
        workers: 2,
        ratio: "1:9",
        value_size: 128,
        key_maximum: 1000,
        load_generator: "memaslap",
      },
      repetitions: 1,
      run_time_s: 2,
      warmup_s: 0,
      cooldown_s: 0,
    }),
  });
  browser = await launch();
  page = await browser.newPage({ viewport: { width: 1360, height: 900 } });
});

afterAll(async () => {
  await browser?.close();
  await worker?.stop();
});

describe("a real experiment from the Start button", () => {
  it("runs on the local testbed and shows what it measured", async () => {
    await page.goto(`${BASE_URL}/experiments/${exp.id}`);
    await page.getByRole("button", { name: "Start" }).click();
    await expect
      .poll(() => page.locator("h1 .badge").textContent(), {
        timeout: 120_000,
        message: worker?.log(),
      })
      .toBe("finished");
    const results = await api<ResultsPublic>(`/experiments/${exp.id}/results?source=client`);
    const [row] = results.data;
    expect(results.data).toHaveLength(1);
    expect(row?.repetitions).toBe(1);
    const throughput = row?.metrics.throughput_per_s.mean ?? 0;
    expect(throughput).toBeGreaterThan(0);
    // The summary table on the page: one measured configuration, its throughput as served.
    const table = page.getByTestId("summary-table");
    await table.waitFor();
    const text = (await table.locator("tbody tr").first().textContent()) ?? "";
    expect(text).toContain(formatNumber(throughput));
    await screenshot(page, "smoke-run-finished");
  }, 180_000);
});
