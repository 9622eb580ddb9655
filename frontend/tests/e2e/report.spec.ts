// End-to-end: the Report tab of a seeded experiment. Hypothesis, two figures and a table chosen,
// reordered and captioned, saved, reloaded; the bundle's main.tex holds them in that order, and
// the PDF button either downloads a PDF or shows the server's message.
import { execFileSync } from "node:child_process";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ExperimentPublic, ReportPublic } from "@/api";
import { api, BASE_URL, launch, screenshot } from "./browser";
import { createSeeded } from "./seed";

let browser: Browser;
let page: Page;
let exp: ExperimentPublic;

const HYPOTHESIS = "Throughput saturates at 16 worker threads per middleware.";
const CAPTION = "Response time & throughput: the knee at 16 workers";

beforeAll(async () => {
  exp = await createSeeded("e2e-report", [8, 16], [1, 16]);
  browser = await launch();
  page = await browser.newPage({ viewport: { width: 1360, height: 900 }, acceptDownloads: true });
});

afterAll(async () => {
  await browser?.close();
});

async function itemHeadings(): Promise<string[]> {
  const items = page.getByTestId("report-item");
  const out: string[] = [];
  for (let i = 0; i < (await items.count()); i++) {
    out.push(((await items.nth(i).locator("strong").textContent()) ?? "").trim());
  }
  return out;
}

async function addItem(label: string): Promise<void> {
  await page.locator('select[name="add-item"]').selectOption({ label });
  // The picker's button (every figure and table of the page has an "Add to report" of its own).
  await page.getByTestId("report-add").getByRole("button", { name: "Add to report" }).click();
}

describe("report builder", () => {
  it("opens on ?tab=report with every figure and table until the user chooses", async () => {
    await page.goto(`${BASE_URL}/experiments/${exp.id}?tab=report`);
    await page.getByTestId("report-builder").waitFor();
    expect(await page.getByRole("tab", { name: "Report" }).getAttribute("aria-selected")).toBe(
      "true",
    );
    expect(await page.getByTestId("report-item").count()).toBeGreaterThan(3);
    expect(await page.getByTestId("hypothesis-written").textContent()).toContain(
      "No hypothesis saved yet",
    );
  });

  it("writes, chooses, reorders, captions and saves", async () => {
    await page.locator('textarea[name="hypothesis"]').fill(HYPOTHESIS);
    await page.locator('textarea[name="notes"]').fill("Seeded runs, 3 repetitions.");
    await page.getByTestId("report-add").getByRole("button", { name: "Remove all" }).click();
    expect(await page.getByTestId("report-item").count()).toBe(0);
    await addItem("Throughput");
    await addItem("Response time");
    await addItem("Summary");
    expect(await itemHeadings()).toEqual([
      "Figure: Throughput",
      "Figure: Response time",
      "Table: Summary",
    ]);
    // Response time first, then the summary table before throughput.
    await page.getByRole("button", { name: "Move Response time up", exact: true }).click();
    await page.getByRole("button", { name: "Move Summary up", exact: true }).click();
    expect(await itemHeadings()).toEqual([
      "Figure: Response time",
      "Table: Summary",
      "Figure: Throughput",
    ]);
    await page.getByTestId("report-item").nth(0).locator('input[name="caption"]').fill(CAPTION);
    await page
      .getByTestId("report-item")
      .nth(2)
      .locator('textarea[name="explanation"]')
      .fill("Throughput grows with clients until the workers saturate.");
    expect(await page.getByTestId("report-save-state").textContent()).toBe("Unsaved changes");
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await page.getByText("Report saved").waitFor();
    expect(await page.getByTestId("report-save-state").textContent()).toBe("Saved");
    await screenshot(page, "report-saved");
  });

  it("shows it all after a reload, and the API holds it", async () => {
    await page.reload();
    await page.getByTestId("report-builder").waitFor();
    expect(await page.locator('textarea[name="hypothesis"]').inputValue()).toBe(HYPOTHESIS);
    expect(await page.locator('textarea[name="notes"]').inputValue()).toBe(
      "Seeded runs, 3 repetitions.",
    );
    expect(await itemHeadings()).toEqual([
      "Figure: Response time",
      "Table: Summary",
      "Figure: Throughput",
    ]);
    const first = page.getByTestId("report-item").nth(0);
    expect(await first.locator('input[name="caption"]').inputValue()).toBe(CAPTION);
    // The seeded runs started before the hypothesis was written.
    const written = (await page.getByTestId("hypothesis-written").textContent()) ?? "";
    expect(written).toContain("written after the runs started");
    expect(written).not.toContain("written before the runs");
    const report = await api<ReportPublic>(`/experiments/${exp.id}/report`);
    expect(report.hypothesis_before_runs).toBe(false);
    expect(report.items.map((i) => `${i.kind}:${i.name}`)).toEqual([
      "figure:response-time",
      "table:summary",
      "figure:throughput",
    ]);
    await screenshot(page, "report-reloaded");
  });

  it("downloads the bundle with the saved items in order in main.tex", async () => {
    const [file] = await Promise.all([
      page.waitForEvent("download", { timeout: 120_000 }),
      page.getByRole("button", { name: "Download bundle (.zip)" }).click(),
    ]);
    expect(file.suggestedFilename()).toBe("e2e-report-report.zip");
    const tex = execFileSync("unzip", ["-p", await file.path(), "main.tex"]).toString();
    expect(tex).toContain(HYPOTHESIS);
    // escape_latex turns & into \&.
    expect(tex).toContain("Response time \\& throughput: the knee at 16 workers");
    expect(tex).toContain("Throughput grows with clients until the workers saturate.");
    const at = ["figures/response-time.pdf", "tables/summary", "figures/throughput.pdf"].map(
      (needle) => tex.indexOf(needle),
    );
    expect(at.every((i) => i >= 0)).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
    expect(tex).not.toContain("figures/percentiles.pdf");
  }, 150_000);

  it("downloads the PDF that pdflatex compiled on the server", async () => {
    const [file] = await Promise.all([
      page.waitForEvent("download", { timeout: 150_000 }),
      page.getByRole("button", { name: "Download PDF" }).click(),
    ]);
    expect(file.suggestedFilename()).toBe("e2e-report-report.pdf");
    const head = execFileSync("head", ["-c", "5", await file.path()]).toString();
    expect(head).toBe("%PDF-");
    const text = execFileSync("pdftotext", [await file.path(), "-"]).toString();
    expect(text).toContain("knee at 16 workers");
    expect(await page.getByTestId("report-download-error").count()).toBe(0);
  }, 200_000);

  it("shows the server's message when the PDF cannot be built", async () => {
    // This server has pdflatex; answer as backend/report/builder.py's NoTexEngine does (503).
    const detail =
      "No TeX engine (pdflatex) is installed on the server; download the bundle " +
      "(report/bundle.zip) and compile main.tex with pdflatex";
    await page.route("**/report.pdf*", (route) =>
      route.fulfill({
        status: 503,
        contentType: "application/json",
        body: JSON.stringify({ detail }),
      }),
    );
    await page.getByRole("button", { name: "Download PDF" }).click();
    const error = page.getByTestId("report-download-error");
    await error.waitFor();
    expect(await error.textContent()).toBe(detail);
    await screenshot(page, "report-pdf-error");
    await page.unroute("**/report.pdf*");
  });

  it("marks a hypothesis saved before any run as written before the runs", async () => {
    const fresh = await api<ExperimentPublic>("/experiments", {
      method: "POST",
      body: JSON.stringify({
        name: "e2e-report-planned",
        template: "write_throughput",
        factors: { workers: [8, 16], clients_per_thread: [1, 4] },
        repetitions: 1,
      }),
    });
    await page.goto(`${BASE_URL}/experiments/${fresh.id}?tab=report`);
    await page.getByTestId("report-builder").waitFor();
    await page.locator('textarea[name="hypothesis"]').fill("Doubling the workers doubles X.");
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await page.getByText("written before the runs", { exact: true }).waitFor();
    expect(await page.getByTestId("hypothesis-written").textContent()).not.toContain("after");
    const report = await api<ReportPublic>(`/experiments/${fresh.id}/report`);
    expect(report.hypothesis_before_runs).toBe(true);
    await screenshot(page, "report-before-runs");
  });
});
