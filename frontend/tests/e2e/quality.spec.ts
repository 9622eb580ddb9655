// End-to-end (issue 28): quality flags as badges on the results summary, the runs table (with
// "Re-run flagged" counting the flagged runs) and the run page, on runs seeded through the
// worker's ingest; one repetition's stored window means are lowered to make it an outlier.
import { execFileSync } from "node:child_process";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ExperimentQualityPublic, RunsPublic } from "@/api";
import { api, BASE_URL, launch, screenshot } from "./browser";
import { createSeeded, type SeededExperiment } from "./seed";

let browser: Browser;
let page: Page;
let exp: SeededExperiment;
let outlierRun: number;

function sql(statement: string): void {
  const db = process.env.E2E_DATABASE ?? "";
  execFileSync("psql", ["-h", "127.0.0.1", "-U", "postgres", "-d", db, "-q", "-c", statement]);
}

beforeAll(async () => {
  exp = await createSeeded(`quality-${Date.now()}`, [8], [1, 4]);
  const runs = await api<RunsPublic>(`/experiments/${exp.id}/runs`);
  const last = runs.data.at(-1);
  if (!last) throw new Error("nothing seeded");
  outlierRun = last.id;
  // 40 % below its configuration's other repetitions: an outlier by the modified z-score.
  sql(
    `UPDATE run_summaries SET throughput = throughput * 0.6 WHERE run_id = ${outlierRun}
       AND source LIKE 'client:%'`,
  );
  browser = await launch();
  page = await (await browser.newContext({ viewport: { width: 1360, height: 900 } })).newPage();
});

afterAll(async () => {
  await browser?.close();
});

describe("quality flags", () => {
  it("names the outlier repetition with its rule and numbers", async () => {
    const q = await api<ExperimentQualityPublic>(`/experiments/${exp.id}/quality`);
    const outliers = q.configurations.flatMap((c) => c.flags);
    expect(outliers.map((f) => f.run_id)).toContain(outlierRun);
    expect(outliers[0]?.rule).toContain("modified z-score");
    expect(q.flagged_run_ids).toContain(outlierRun);
  });

  it("shows badges on the results summary", async () => {
    await page.goto(`${BASE_URL}/experiments/${exp.id}`);
    const table = page.getByTestId("summary-table");
    await table.locator('[data-flag="outlier_repetition"]').first().waitFor();
    const title = await table
      .locator('[data-flag="outlier_repetition"]')
      .first()
      .getAttribute("title");
    expect(title).toContain("modified z");
    await screenshot(page, "quality-results");
  });

  it("counts flagged runs on the runs panel and shows the run's flags on its page", async () => {
    const q = await api<ExperimentQualityPublic>(`/experiments/${exp.id}/quality`);
    await page.goto(`${BASE_URL}/experiments/${exp.id}?tab=runs`);
    const button = page.getByTestId("rerun-flagged");
    await expect
      .poll(() => button.textContent())
      .toBe(`Re-run flagged (${q.flagged_run_ids.length})`);
    const row = page
      .getByTestId("runs-table")
      .locator("tr", { has: page.getByRole("link", { name: String(outlierRun), exact: true }) });
    await row.locator('[data-flag="outlier_repetition"]').waitFor();
    await screenshot(page, "quality-runs");
    await page.goto(`${BASE_URL}/runs/${outlierRun}`);
    const section = page.getByTestId("run-quality");
    await section.waitFor();
    await expect.poll(() => section.textContent()).toContain("modified z-score");
    await screenshot(page, "quality-run-page");
  });
});
