// End-to-end: edit the design of an experiment that has no runs (the draft survives a reload),
// then duplicate it with a changed factor before saving.
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ConfigurationsPublic, ExperimentPublic } from "@/api";
import { api, BASE_URL, launch, screenshot } from "./browser";

let browser: Browser;
let page: Page;
let exp: ExperimentPublic;
const NAME = `design-${Date.now()}`;

beforeAll(async () => {
  exp = await api<ExperimentPublic>("/experiments", {
    method: "POST",
    body: JSON.stringify({ name: NAME, factors: { workers: [8, 16] }, repetitions: 2 }),
  });
  browser = await launch();
  page = await browser.newPage({ viewport: { width: 1360, height: 900 } });
});

afterAll(async () => {
  await browser?.close();
});

describe("editing and duplicating a design", () => {
  it("edits a design with no runs; the unsaved draft survives a reload", async () => {
    await page.goto(`${BASE_URL}/experiments/${exp.id}`);
    await page.getByRole("link", { name: "Edit design" }).click();
    await page.getByRole("heading", { name: `Edit ${NAME}` }).waitFor();
    const workers = page.locator('input[name="factor-workers"]');
    expect(await workers.inputValue()).toBe("8, 16");
    await workers.fill("8, 16, 32");
    await page.locator('input[name="repetitions"]').fill("3");
    // Warm-up + cool-down past the run time: said at the field, in words.
    await page.locator('input[name="cooldown_s"]').fill("85");
    await expect
      .poll(() => page.getByTestId("error-cooldown_s").textContent(), { timeout: 10_000 })
      .toContain("warm-up plus cool-down (95 s) must be shorter than the run time (90 s)");
    expect(await page.getByTestId("error-body").count()).toBe(0);
    // No window is drawn for a design that has none (it read "10 s to -5 s").
    expect(await page.getByTestId("window-hint").count()).toBe(0);
    await screenshot(page, "design-edit-cross-field");
    await page.locator('input[name="cooldown_s"]').fill("10");
    // The server's window of the defaults (90 s runs, 10 s cut at each end).
    await expect
      .poll(() => page.getByTestId("window-hint").textContent(), { timeout: 10_000 })
      .toBe("Measured window per run: 10 s to 80 s.");

    await page.reload();
    await page.getByTestId("draft-restored").waitFor();
    expect(await workers.inputValue()).toBe("8, 16, 32");
    expect(await page.locator('input[name="repetitions"]').inputValue()).toBe("3");
    await page.getByRole("button", { name: "Save design" }).click();
    await page.waitForURL(`${BASE_URL}/experiments/${exp.id}`);
    await page.getByTestId("configurations-table").waitFor();
    const saved = await api<ExperimentPublic>(`/experiments/${exp.id}`);
    expect(saved.factors).toEqual({ workers: [8, 16, 32] });
    expect(saved.repetitions).toBe(3);
    expect(saved.id).toBe(exp.id);
  });

  it("duplicates with a changed factor before saving; the original is unchanged", async () => {
    await page.getByRole("link", { name: "Duplicate" }).click();
    await page.getByRole("heading", { name: `Copy of ${NAME}` }).waitFor();
    expect(await page.locator('input[name="name"]').inputValue()).toBe(`${NAME} (copy)`);
    await page.locator('input[name="factor-workers"]').fill("4, 64");
    await screenshot(page, "design-duplicate");
    await page.getByRole("button", { name: "Create experiment" }).click();
    await page.waitForURL(/\/experiments\/\d+$/);
    await page.getByRole("heading", { name: `${NAME} (copy)` }).waitFor();
    const copyId = Number(new URL(page.url()).pathname.split("/").pop());
    expect(copyId).not.toBe(exp.id);
    const configs = await api<ConfigurationsPublic>(`/experiments/${copyId}/configurations`);
    expect(configs.data.map((c) => c.values.workers)).toEqual([4, 64]);
    const original = await api<ExperimentPublic>(`/experiments/${exp.id}`);
    expect(original.factors).toEqual({ workers: [8, 16, 32] });
  });

  it("shows every field's error at once, and creates nothing", async () => {
    // Issue 27.5: servers = 0 was flagged only once the name and repetitions were fixed.
    await page.goto(`${BASE_URL}/experiments/new`);
    await page.locator('select[name="template"]').selectOption("write_throughput");
    await page.locator('input[name="factor-workers"]').fill("8, 0");
    await page.locator('input[name="fixed-servers"]').fill("0");
    await page.locator('input[name="repetitions"]').fill("0");
    // The live preview already marks the design's fields together.
    await page.getByTestId("error-fixed-servers").waitFor();
    await page.getByTestId("error-factors-workers").waitFor();
    await page.getByTestId("error-repetitions").waitFor();
    await page.locator('input[name="name"]').fill(" ");
    await page.getByRole("button", { name: "Create experiment" }).click();
    await page.getByTestId("error-name").waitFor();
    const texts = async (ids: string[]) =>
      Promise.all(ids.map((id) => page.getByTestId(id).textContent()));
    expect(
      await texts([
        "error-name",
        "error-repetitions",
        "error-fixed-servers",
        "error-factors-workers",
      ]),
    ).toEqual([
      expect.stringContaining("must not be blank"),
      expect.stringContaining("greater than or equal to 1"),
      expect.stringContaining("0 is outside the allowed range 1.."),
      expect.stringContaining("0 is outside the allowed range 1..256"),
    ]);
    expect(page.url()).toBe(`${BASE_URL}/experiments/new`);
    await screenshot(page, "design-every-error");
  });

  it("keeps the factors in the order given: form, saved design and reloads", async () => {
    // The template lists clients per thread, then ratio (PostgreSQL's JSONB sorts them the
    // other way round: shorter keys first).
    const order = ["clients_per_thread", "ratio"];
    const factorInputs = async () =>
      (await page
        .getByTestId("factor-editor")
        .locator('input[name^="factor-"]')
        .evaluateAll((inputs) =>
          inputs.map((i) => (i as HTMLInputElement).name.replace("factor-", "")),
        )) as string[];
    await page.goto(`${BASE_URL}/experiments/new`);
    await page.locator('select[name="template"]').selectOption("baseline_no_middleware");
    await expect.poll(factorInputs).toEqual(order);
    await page.locator('input[name="name"]').fill(`${NAME} order`);
    await page.getByRole("button", { name: "Create experiment" }).click();
    await page.waitForURL(/\/experiments\/\d+$/);
    const id = Number(new URL(page.url()).pathname.split("/").pop());
    const headers = page.getByTestId("configurations-table").locator("thead th");
    await headers.first().waitFor();
    expect(await headers.allTextContents()).toEqual(["#", "Clients per thread", "SET:GET ratio"]);
    const saved = await api<ExperimentPublic>(`/experiments/${id}`);
    expect(Object.keys(saved.factors ?? {})).toEqual(order);
    const configs = await api<ConfigurationsPublic>(`/experiments/${id}/configurations`);
    expect(Object.keys(configs.data[0]?.values ?? {})).toEqual(order);
    await page.reload();
    await headers.first().waitFor();
    expect(await headers.allTextContents()).toEqual(["#", "Clients per thread", "SET:GET ratio"]);
    await page.getByRole("link", { name: "Edit design" }).click();
    await page.getByRole("heading", { name: `Edit ${NAME} order` }).waitFor();
    await expect.poll(factorInputs).toEqual(order);
    await screenshot(page, "design-factor-order");
  });
});
