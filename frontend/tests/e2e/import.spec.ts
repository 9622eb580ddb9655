// End-to-end on the real API: upload an archive of earlier memtier runs (real memtier outputs
// from worker/tests/fixtures, one per folder w8/ and w16/, plus an unrelated note), map the
// folder names to the worker count, check the preview, confirm, find the provenance on the
// experiment page, and compare the imported experiment with a native one seeded from the same
// output through the worker's real path: the two must not differ.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ExperimentPublic } from "@/api";
import { api, BASE_URL, launch, screenshot } from "./browser";
import { runPythonModule } from "./seed";

const ROOT = resolve(__dirname, "../../..");
const FIXTURES = join(ROOT, "worker/tests/fixtures");
const MEMTIER = "memtier_ratio1-1_c2_t1_d128_5s";
const HDR = ["FULL_RUN", "GET_command_run", "SET_command_run"].flatMap((t) =>
  ["hgrm", "txt"].map((ext) => `_hdr_${t}_1.${ext}`),
);
const stamp = Date.now();
const WAIT_MS = 90_000;
const TEST_MS = 240_000;
const POLL = { timeout: WAIT_MS };

let browser: Browser;
let page: Page;
let work: string;
let archive: string;
let native: ExperimentPublic;

/** The archive: each folder's JSON differs in whitespace only (another file by content). */
function buildArchive(): string {
  const tree = join(work, "tree");
  ["w8", "w16"].forEach((folder, i) => {
    mkdirSync(join(tree, folder), { recursive: true });
    const json = readFileSync(join(FIXTURES, `${MEMTIER}.json`), "utf8").replace(
      '"clients": 2',
      `"clients":${" ".repeat(i + 1)}${stamp % 2 === 0 ? "" : " "}2`,
    );
    writeFileSync(join(tree, folder, `${MEMTIER}.json`), json);
    for (const suffix of HDR) {
      const name = `${MEMTIER}${suffix}`;
      writeFileSync(join(tree, folder, name), readFileSync(join(FIXTURES, name)));
    }
  });
  writeFileSync(join(tree, "notes.txt"), "runs of tuesday, 8 and 16 workers\n");
  const out = join(work, `runs-${stamp}.tar.gz`);
  execFileSync("tar", ["czf", out, "-C", tree, "."]);
  return out;
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), "mcscope-e2e-import-"));
  archive = buildArchive();
  // The native experiment: the same design, seeded from the same output by the worker's path.
  native = await api<ExperimentPublic>("/experiments", {
    method: "POST",
    body: JSON.stringify({
      name: `native-${stamp}`,
      factors: { workers: [8, 16] },
      fixed: {
        middlewares: 1,
        servers: 1,
        clients_per_thread: 2,
        threads_per_instance: 1,
        ratio: "1:1",
        value_size: 128,
        load_generator: "memtier",
      },
      repetitions: 1,
      run_time_s: 5,
      warmup_s: 1,
      cooldown_s: 1,
    }),
  });
  runPythonModule("worker.scripts.seed_fixture_runs", [
    "--experiment",
    String(native.id),
    "--output",
    join(FIXTURES, `${MEMTIER}.json`),
    "--instances",
    "1",
  ]);
  browser = await launch();
  page = await (await browser.newContext({ viewport: { width: 1400, height: 1000 } })).newPage();
  page.setDefaultTimeout(WAIT_MS);
});

afterAll(async () => {
  await browser?.close();
  rmSync(work, { recursive: true, force: true });
});

describe("import", () => {
  it(
    "uploads, previews the mapping, confirms, and compares with a native experiment",
    async () => {
      await page.goto(`${BASE_URL}/experiments`);
      await page.getByRole("link", { name: "Import runs" }).click();
      await page.getByLabel("Archive to import").setInputFiles(archive);
      await expect
        .poll(() => page.getByTestId("import-staged").textContent(), POLL)
        .toContain("15 file(s) staged");
      // 2 x (JSON + 6 HDR files) + the note. Before the mapping: one configuration, the note
      // listed with its reason.
      const configs = page.getByTestId("import-configurations");
      await expect.poll(() => configs.textContent(), POLL).toContain("Configurations (1)");
      expect(await page.getByTestId("import-unused").textContent()).toContain(
        "not a recognised output",
      );
      const mapping = page.getByTestId("import-mapping");
      await mapping.getByLabel("Pattern over file paths").fill("w(?P<workrs>\\d+)/");
      await expect
        .poll(() => page.getByTestId("pattern-error").textContent(), POLL)
        .toContain("'workrs' is not a parameter");
      await mapping.getByLabel("Pattern over file paths").fill("w(?P<workers>\\d+)/");
      await mapping.getByLabel("Values for every run").fill("middlewares=1");
      await mapping.getByLabel("Warm-up cut (s)").fill("1");
      await mapping.getByLabel("Cool-down cut (s)").fill("1");
      await mapping.getByLabel("Experiment name").fill(`imported-${stamp}`);
      await expect.poll(() => configs.textContent(), POLL).toContain("#2: workers=16");
      expect(await configs.textContent()).toContain("#1: workers=8");
      const runs = page.getByTestId("import-run");
      await expect.poll(() => runs.count()).toBe(2);
      expect(await runs.first().textContent()).toContain("cut 1 s..4 s after the load started");
      await screenshot(page, "import-preview");

      await page.getByRole("button", { name: /Confirm import of 2 run/ }).click();
      await expect.poll(() => page.url(), POLL).toMatch(/\/experiments\/\d+$/);
      const importedId = Number(page.url().split("/").pop());
      await expect
        .poll(() => page.getByTestId("provenance").textContent(), POLL)
        .toContain(`Imported from runs-${stamp}.tar.gz`);
      expect(await page.getByRole("button", { name: "Start" }).isDisabled()).toBe(true);
      await screenshot(page, "import-experiment");

      await page.goto(`${BASE_URL}/compare?e=${native.id},${importedId}`);
      const rows = page.getByTestId("difference-row");
      await rows.first().waitFor();
      await expect.poll(() => rows.count(), POLL).toBe(2);
      const configsShown = await rows.evaluateAll((trs) =>
        trs.map((tr) => tr.children[1]?.textContent ?? ""),
      );
      expect(configsShown.some((t) => /\b8 worker thread/.test(t))).toBe(true);
      expect(configsShown.some((t) => /\b16 worker thread/.test(t))).toBe(true);
      // The same output on both sides: a difference of 0 (shown as 0 in the table).
      for (const row of await rows.all()) {
        expect(await row.locator("td").nth(4).textContent()).toMatch(/^0\b/);
      }
      await screenshot(page, "import-compare");
    },
    TEST_MS,
  );
});
