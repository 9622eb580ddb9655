// End-to-end: a "which factors matter" design of five two-level factors previewed as a
// 2^(5-1) V fraction (by resolution), then by generators, with its alias table and the
// smallest effect each design detects given a typed noise; a bad generator is said at the field.
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ExperimentPublic } from "@/api";
import { api, BASE_URL, launch, screenshot } from "./browser";

let browser: Browser;
let page: Page;
let exp: ExperimentPublic;

beforeAll(async () => {
  exp = await api<ExperimentPublic>("/experiments", {
    method: "POST",
    body: JSON.stringify({
      name: `screening-${Date.now()}`,
      factors: {
        servers: [1, 2],
        workers: [8, 16],
        clients_per_thread: [1, 4],
        value_size: [128, 4096],
        threads_per_instance: [1, 2],
      },
      fixed: { ratio: "0:1" },
      repetitions: 1,
      run_time_s: 30,
      warmup_s: 5,
      cooldown_s: 5,
    }),
  });
  browser = await launch();
  page = await browser.newPage({ viewport: { width: 1360, height: 1500 } });
});

afterAll(async () => {
  await browser?.close();
});

describe("fractional designs in the design form", () => {
  it("previews a fraction's resolution, aliases and detectable effects before any run", async () => {
    await page.goto(`${BASE_URL}/experiments/new?from=${exp.id}`);
    await page.getByTestId("fraction-editor").waitFor();
    const preview = page.getByTestId("grid-preview");
    // The full grid first: 32 configurations, and its fractions listed beside it.
    await expect
      .poll(() => page.getByTestId("preview-configurations").textContent(), { timeout: 10_000 })
      .toBe("32");
    await page.getByLabel("Fraction by resolution").check();
    await page.locator('select[name="fraction-resolution"]').selectOption("5");
    await expect
      .poll(() => page.getByTestId("fraction-resolution").textContent(), { timeout: 10_000 })
      .toBe("V");
    expect(await page.getByTestId("preview-configurations").textContent()).toBe("16");
    expect(await page.getByTestId("fraction-generators").textContent()).toBe("E = ABCD");
    const aliases = await page.getByTestId("alias-table").textContent();
    expect(aliases).toContain("AB + CDE");

    // A pilot's std of 500 ops/s: the 16-run V detects 2 x 500 x 2.8016 / 4 = 700.4.
    await page.locator('input[name="noise-std"]').fill("500");
    await expect
      .poll(() => page.getByTestId("min-effect-2^(5-1) V").textContent(), { timeout: 10_000 })
      .toBe("700.4");
    expect(await page.getByTestId("noise-source").textContent()).toContain("std 500 as typed");
    await screenshot(page, "fractional-preview-resolution-v");
    expect(await preview.textContent()).toContain("2^5 full");

    // By generators: E = ABC is the resolution IV half fraction.
    await page.getByLabel("Fraction by generators").check();
    await page.locator('input[name="fraction-generators"]').fill("E = ABC");
    await expect
      .poll(() => page.getByTestId("fraction-resolution").textContent(), { timeout: 10_000 })
      .toBe("IV");
    expect(await page.getByTestId("alias-table").textContent()).toContain("A + BCE");

    // A bad generator is said at the field.
    await page.locator('input[name="fraction-generators"]').fill("E = A");
    await expect
      .poll(() => page.getByTestId("error-fraction").textContent(), { timeout: 10_000 })
      .toContain("aliases two main effects");
    // ...and the preview shows the server's reason, not the IV fraction's numbers as current.
    expect(await page.getByTestId("preview-error").textContent()).toContain(
      "aliases two main effects",
    );
    expect(await page.getByTestId("preview-configurations").count()).toBe(0);
    expect(await page.getByTestId("alias-table").count()).toBe(0);
    await screenshot(page, "fractional-bad-generator");
  });
});
