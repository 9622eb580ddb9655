// End-to-end: a report in Japanese. Figure, table, figure chosen in the Report tab in a set
// order, a Japanese hypothesis and captions; report.pdf (LuaLaTeX with the CJK and emoji
// fallback fonts, backend/domain/printing.py) prints the items in that order and every
// character as written, none as a "[U+...]" code point.
import { execFileSync } from "node:child_process";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ExperimentPublic } from "@/api";
import { BASE_URL, launch, screenshot } from "./browser";
import { createSeeded } from "./seed";

let browser: Browser;
let page: Page;
let exp: ExperimentPublic;

const HYPOTHESIS = "仮説：ワーカースレッドを16に増やすと、スループットは飽和する。🚀";
// The order the report is built in, by caption: a figure, a table, a figure.
const CAPTIONS = ["第一図：スループット", "第一表：要約", "第二図：応答時間"];

beforeAll(async () => {
  exp = await createSeeded("e2e-report-cjk", [8, 16], [1, 16]);
  browser = await launch();
  page = await browser.newPage({ viewport: { width: 1360, height: 900 }, acceptDownloads: true });
});

afterAll(async () => {
  await browser?.close();
});

async function addItem(label: string): Promise<void> {
  await page.locator('select[name="add-item"]').selectOption({ label });
  await page.getByTestId("report-add").getByRole("button", { name: "Add to report" }).click();
}

/** The PDF's text with every space and line break removed: TeX breaks CJK lines anywhere. */
function squeezed(text: string): string {
  return text.replace(/\s+/g, "");
}

describe("report in Japanese", () => {
  it("builds figure, table, figure with a Japanese hypothesis and saves it", async () => {
    await page.goto(`${BASE_URL}/experiments/${exp.id}?tab=report`);
    await page.getByTestId("report-builder").waitFor();
    await page.locator('textarea[name="hypothesis"]').fill(HYPOTHESIS);
    await page.getByTestId("report-add").getByRole("button", { name: "Remove all" }).click();
    await addItem("Throughput");
    await addItem("Summary");
    await addItem("Response time");
    const items = page.getByTestId("report-item");
    await expect.poll(() => items.count()).toBe(3);
    for (const [i, caption] of CAPTIONS.entries()) {
      await items.nth(i).locator('input[name="caption"]').fill(caption);
    }
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await page.getByText("Report saved").waitFor();
    await screenshot(page, "report-cjk-saved");
  });

  it("downloads report.pdf with the items in that order and the hypothesis as written", async () => {
    const [file] = await Promise.all([
      page.waitForEvent("download", { timeout: 150_000 }),
      page.getByRole("button", { name: "Download PDF" }).click(),
    ]);
    expect(file.suggestedFilename()).toBe("e2e-report-cjk-report.pdf");
    const path = await file.path();
    const text = squeezed(execFileSync("pdftotext", [path, "-"]).toString());
    expect(text).toContain(squeezed(HYPOTHESIS));
    expect(text).not.toContain("[U+");
    const at = CAPTIONS.map((caption) => text.indexOf(squeezed(caption)));
    expect(at.every((i) => i >= 0)).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
    expect(await page.getByTestId("report-download-error").count()).toBe(0);
  }, 200_000);
});
