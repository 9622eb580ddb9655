// End-to-end: design an experiment through the form (preview, 422 at the field), open it, list it.
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ExperimentsPublic } from "@/api";
import { api, BASE_URL, launch, screenshot } from "./browser";

let browser: Browser;
let page: Page;
const NAME = `writes-${Date.now()}`;

beforeAll(async () => {
  browser = await launch();
  page = await browser.newPage({ viewport: { width: 1360, height: 900 } });
});

afterAll(async () => {
  await browser?.close();
});

async function textOf(testId: string): Promise<string> {
  return (await page.getByTestId(testId).textContent())?.trim() ?? "";
}

describe("experiments", () => {
  it("opens on the experiments list", async () => {
    await page.goto(`${BASE_URL}/`);
    await page.getByRole("heading", { name: "Experiments" }).waitFor();
    expect(page.url()).toBe(`${BASE_URL}/experiments`);
  });

  it("seeds the form from a template and previews the grid", async () => {
    await page.getByRole("link", { name: "New experiment" }).first().click();
    await page.getByRole("heading", { name: "New experiment" }).waitFor();
    await page.locator('select[name="template"]').selectOption("write_throughput");
    // write_throughput: workers 8,16,32,64 x clients_per_thread 1,4,8,16,32,48, 3 repetitions.
    await expect.poll(() => textOf("preview-configurations")).toBe("24");
    expect(await textOf("preview-runs")).toBe("72");
    expect(await page.locator('input[name="factor-workers"]').inputValue()).toBe("8, 16, 32, 64");
    expect(await page.locator('input[name="fixed-servers"]').inputValue()).toBe("3");
    await screenshot(page, "new-experiment");
  });

  it("shows the server's 422 next to the offending factor and does not create", async () => {
    await page.locator('input[name="name"]').fill(NAME);
    await page.locator('input[name="factor-workers"]').fill("8, 16, 0");
    await page.getByRole("button", { name: "Create experiment" }).click();
    const error = page.getByTestId("error-factors-workers");
    await error.waitFor();
    expect(await error.textContent()).toContain("0 is outside the allowed range 1..256");
    expect(page.url()).toBe(`${BASE_URL}/experiments/new`);
    const same = await api<ExperimentsPublic>(`/experiments?q=${NAME}`);
    expect(same.count).toBe(0);
    await screenshot(page, "new-experiment-422");
  });

  it("creates the experiment once fixed and opens it with its configurations", async () => {
    await page.locator('input[name="factor-workers"]').fill("8, 16, 32");
    await expect.poll(() => textOf("preview-configurations")).toBe("18");
    expect(await page.getByTestId("error-factors-workers").count()).toBe(0);
    await page.getByRole("button", { name: "Create experiment" }).click();
    await page.waitForURL(/\/experiments\/\d+$/);
    await page.getByTestId("configurations-table").waitFor();
    await expect
      .poll(() => page.getByTestId("configurations-table").locator("tbody tr").count())
      .toBe(18);
    await page.getByText("Not started").waitFor();
    // Nothing has run: the page opens on its grid; the runs are a tab away.
    expect(
      await page.getByRole("tab", { name: "Configurations" }).getAttribute("aria-selected"),
    ).toBe("true");
    await page.getByRole("tab", { name: "Runs" }).click();
    await page.getByText("No runs").waitFor();
    expect(page.url()).toContain("tab=runs");
    await screenshot(page, "experiment");
  });

  it("rejects a second experiment with the same name at the name field", async () => {
    await page.goto(`${BASE_URL}/experiments/new`);
    await page.locator('input[name="name"]').fill(NAME);
    await page.getByRole("button", { name: "Create experiment" }).click();
    await page.getByTestId("error-name").waitFor();
    expect(await page.getByTestId("error-name").textContent()).toContain("already exists");
  });

  it("lists and searches experiments", async () => {
    await page.goto(`${BASE_URL}/experiments`);
    const table = page.getByTestId("experiments-table");
    await table.waitFor();
    const row = table.locator("tbody tr", { hasText: NAME });
    expect(await row.locator(".badge").textContent()).toBe("draft");
    expect(await row.textContent()).toContain("0 / 54");
    await screenshot(page, "experiments");
    await page.getByLabel("Search experiments").fill("no-such-experiment");
    await page.getByText("No experiment matches").waitFor();
  });

  it("duplicates an experiment under a new name, then deletes the copy", async () => {
    await page.getByLabel("Search experiments").fill("");
    await page.getByTestId("experiments-table").getByRole("link", { name: NAME }).click();
    await page.getByTestId("configurations-table").waitFor();
    await page.getByRole("link", { name: "Duplicate" }).click();
    await page.getByRole("heading", { name: `Copy of ${NAME}` }).waitFor();
    expect(await page.locator('input[name="name"]').inputValue()).toBe(`${NAME} (copy)`);
    await page.locator('input[name="name"]').fill(`${NAME}-copy`);
    await page.getByRole("button", { name: "Create experiment" }).click();
    await page.getByRole("heading", { name: `${NAME}-copy` }).waitFor();
    await expect
      .poll(() => page.getByTestId("configurations-table").locator("tbody tr").count())
      .toBe(18);
    page.once("dialog", (d) => d.accept());
    await page.getByRole("button", { name: "Delete" }).click();
    await page.waitForURL(`${BASE_URL}/experiments`);
    const left = await api<ExperimentsPublic>(`/experiments?q=${NAME}`);
    expect(left.data.map((e) => e.name)).toEqual([NAME]);
  });
});
