// End-to-end: a run's page (its configuration in words, error, hosts, tools, command lines) and
// its raw files as a zip; the testbeds page listing the tools runs found; /docs rendering with
// every non-local request cut.
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ExperimentPublic, RunPublic, RunsPublic } from "@/api";
import { api, BASE_URL, launch, screenshot } from "./browser";
import { createSeeded } from "./seed";

let browser: Browser;
let page: Page;
let exp: ExperimentPublic;
let runId: number;
let bareRunId: number;
let lastRun: RunPublic;
const ERROR = `memtier_benchmark exited with 1\n${"connection refused\n".repeat(30)}last line`;

function sql(statement: string): void {
  const db = process.env.E2E_DATABASE ?? "";
  execFileSync("psql", ["-h", "127.0.0.1", "-U", "postgres", "-d", db, "-q", "-c", statement]);
}

beforeAll(async () => {
  exp = await createSeeded(`run-page-${Date.now()}`, [8], [1], { middlewares: 2 });
  const runs = await api<RunsPublic>(`/experiments/${exp.id}/runs`);
  runId = runs.data[0]?.id ?? 0;
  bareRunId = runs.data[1]?.id ?? 0;
  // Not the first succeeded run, so the results view shows it only when the link asks for it.
  const last = runs.data[2];
  if (!last) throw new Error("the seeded experiment has fewer than 3 runs");
  lastRun = last;
  const command = "memtier_benchmark --server=127.0.0.1 --port=11211 --protocol=memcache_text";
  const hosts = {
    server: [{ name: "memcached-0", host: "local", address: "127.0.0.1", port: 11211 }],
  };
  sql(
    `UPDATE runs SET status = 'failed', error = $$${ERROR}$$,
       tool_versions = '{"memcached": "1.6.21", "memtier_benchmark": "2.3.0"}',
       phase_timings = '{"preflight": 1.25, "start_servers": 0.5}',
       hosts = '${JSON.stringify(hosts)}',
       commands = '[{"role": "client", "source": "client:0", "host": "local",
                     "command": "${command}"}]'
     WHERE id = ${runId}`,
  );
  // Raw files where the worker archives them (scripts/e2e.sh gives this run its own var/).
  const varDir = process.env.E2E_VAR_DIR;
  if (!varDir) throw new Error("E2E_VAR_DIR is not set: run through scripts/e2e.sh");
  const dir = `${varDir}/runs/${runId}/attempt-1-e2e/client-0`;
  mkdirSync(dir, { recursive: true });
  writeFileSync(`${dir}/memtier.json`, '{"ALL STATS": {}}');
  writeFileSync(`${dir}/memtier.log`, "x".repeat(200_000));
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

describe("run page, testbeds and offline docs", () => {
  it("opens a run from the runs table with its full error, hosts, tools and commands", async () => {
    await page.goto(`${BASE_URL}/experiments/${exp.id}?tab=runs`);
    await page
      .getByTestId("runs-table")
      .getByRole("link", { name: String(runId), exact: true })
      .click();
    await page.getByRole("heading", { name: `Run ${runId}` }).waitFor();
    // Consecutive identical lines are shown once, with their count.
    expect(await page.getByTestId("run-error").textContent()).toBe(
      "memtier_benchmark exited with 1\nconnection refused ×30\nlast line",
    );
    expect(await page.getByTestId("tool-versions").textContent()).toContain(
      "memtier_benchmark2.3.0",
    );
    expect(await page.getByTestId("run-hosts").textContent()).toContain("memcached-0");
    expect(await page.getByTestId("run-commands").locator("pre").textContent()).toContain(
      "--protocol=memcache_text",
    );
    const phases = await page.getByTestId("phase-timings").locator("tbody").textContent();
    expect(phases).toBe("preflight1.25start servers0.5");
    await screenshot(page, "run-page");
  });

  it("downloads the run's raw files as a zip", async () => {
    const [file] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("button", { name: "Download raw files (zip)" }).click(),
    ]);
    expect(file.suggestedFilename()).toBe(`run-${runId}.zip`);
    const listing = execFileSync("../.venv/bin/python", [
      "-c",
      "import sys, zipfile; z = zipfile.ZipFile(sys.argv[1]); print('\\n'.join(f'{i.filename} {i.file_size}' for i in z.infolist()))",
      await file.path(),
    ]).toString();
    expect(listing.trim().split("\n").sort()).toEqual([
      `run-${runId}/attempt-1-e2e/client-0/memtier.json 17`,
      `run-${runId}/attempt-1-e2e/client-0/memtier.log 200000`,
    ]);
  });

  it("reads the raw files in the page, a page at a time, and downloads one", async () => {
    const files = page.getByTestId("run-files");
    expect(await files.locator("tbody tr").allTextContents()).toEqual([
      "attempt-1-e2e/client-0/memtier.json17 BDownload",
      "attempt-1-e2e/client-0/memtier.log195.3 KiBDownload",
    ]);
    await files
      .getByRole("button", { name: "attempt-1-e2e/client-0/memtier.json", exact: true })
      .click();
    await expect.poll(() => page.getByTestId("file-text").textContent()).toBe('{"ALL STATS": {}}');
    await files
      .getByRole("button", { name: "attempt-1-e2e/client-0/memtier.log", exact: true })
      .click();
    const range = page.getByTestId("file-page-range");
    await expect.poll(() => range.textContent()).toBe("bytes 0–65,536 of 200,000");
    expect((await page.getByTestId("file-text").textContent())?.length).toBe(65_536);
    for (const to of ["131,072", "196,608", "200,000"]) {
      await page.getByRole("button", { name: "Next page" }).click();
      await expect.poll(() => range.textContent()).toContain(`–${to} of 200,000`);
    }
    expect(await page.getByRole("button", { name: "Next page" }).isDisabled()).toBe(true);
    await page.getByRole("button", { name: "Previous page" }).click();
    await expect.poll(() => range.textContent()).toBe("bytes 131,072–196,608 of 200,000");
    await screenshot(page, "run-page-raw-files");
    const [file] = await Promise.all([
      page.waitForEvent("download"),
      files.getByRole("button", { name: "Download attempt-1-e2e/client-0/memtier.json" }).click(),
    ]);
    expect(file.suggestedFilename()).toBe("memtier.json");
  });

  it("says so in words when a run kept no raw files", async () => {
    await page.goto(`${BASE_URL}/runs/${bareRunId}`);
    await page.getByRole("button", { name: "Download raw files (zip)" }).click();
    await page.getByTestId("no-raw-files").waitFor();
  });

  it("names the run's configuration in words and links to its results", async () => {
    // The run brings its own configuration: the experiment's grid is not loaded.
    const requested: string[] = [];
    const record = (r: { url: () => string }) => requested.push(new URL(r.url()).pathname);
    page.on("request", record);
    await page.goto(`${BASE_URL}/runs/${lastRun.id}`);
    const card = page.getByTestId("run-configuration");
    await card.waitFor();
    page.off("request", record);
    expect(requested).toContain(`/api/v1/runs/${lastRun.id}`);
    expect(requested.filter((p) => p.endsWith("/configurations"))).toEqual([]);
    // The served legends, as server figures word a level.
    // The served legends arrive with /parameters, which may land after the run itself.
    await expect
      .poll(() => card.getByTestId("run-factors").textContent())
      .toBe("8 worker threads · 1 client per thread");
    const fixed = (await card.getByTestId("run-fixed").textContent()) ?? "";
    for (const value of ["3 servers", "2 middlewares", "SET:GET 1:0", "3 client machines"]) {
      expect(fixed).toContain(value);
    }
    expect(fixed).not.toContain("_");
    await screenshot(page, "run-page-configuration");
    await card.getByRole("link", { name: "Show its results" }).click();
    await page.getByTestId("results-view").waitFor();
    const url = new URL(page.url());
    expect(url.pathname).toBe(`/experiments/${exp.id}`);
    expect(url.searchParams.get("config")).toBe(String(lastRun.configuration_id));
    expect(url.searchParams.get("run")).toBe(String(lastRun.id));
    expect(url.searchParams.get("fix")).toBe("clients_per_thread:1~workers:8");
    const histogramConfig = page.getByTestId("figure-histogram").locator('select[name="config"]');
    await histogramConfig.waitFor();
    expect(await histogramConfig.inputValue()).toBe(String(lastRun.configuration_id));
    const seriesRun = page.getByTestId("figure-time-series").locator('select[name="run"]');
    await seriesRun.locator(`option[value="${lastRun.id}"]`).waitFor({ state: "attached" });
    expect(await seriesRun.inputValue()).toBe(String(lastRun.id));
  });

  it("lists testbeds with the tools their runs found", async () => {
    await page.goto(`${BASE_URL}/testbeds`);
    const local = page.getByTestId("testbed-local");
    await local.getByTestId("testbed-tools").waitFor();
    const text = await local.getByTestId("testbed-tools").textContent();
    expect(text).toContain("memtier_benchmark2.3.0");
    expect(text).toContain(`run ${runId}`);
    await screenshot(page, "testbeds");
  });

  it("renders /docs with the network cut to this server", async () => {
    const context = await browser.newContext({ viewport: { width: 1360, height: 900 } });
    const blocked: string[] = [];
    const local = new URL(BASE_URL).host;
    await context.route("**/*", (route) => {
      const url = new URL(route.request().url());
      if (url.host === local) return route.continue();
      blocked.push(url.href);
      return route.abort();
    });
    const docs = await context.newPage();
    await docs.goto(`${BASE_URL}/docs`);
    await docs.locator(".swagger-ui .info .title").filter({ hasText: "mcscope" }).waitFor();
    await docs.locator(".opblock-tag", { hasText: "experiments" }).first().waitFor();
    expect(blocked).toEqual([]);
    await screenshot(docs, "docs-offline");
    await context.close();
  });
});
