// End-to-end: an Azure creation that failed before making anything (seeded straight into the
// database, as the worker leaves it: status failed, an error, no progress) shows on the
// Testbeds page with its badge and error, offers exactly the actions the served state table
// allows from "failed", and Delete (the name typed again) removes it without Azure: the lab
// is deleted and no action is left.
import { execFileSync } from "node:child_process";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AzureLabPublic, AzureLabStatesPublic } from "@/api";
import { api, BASE_URL, launch, screenshot } from "./browser";

const name = `failede2e${Date.now().toString(36)}`;
const ERROR = "creating virtual machine failed: QuotaExceeded (seeded)";

let browser: Browser;
let page: Page;
let labId: number;

/** One row as the worker leaves a creation that failed at its first resource. */
function seedFailedLab(): number {
  const db = process.env.E2E_DATABASE;
  if (!db) throw new Error("E2E_DATABASE is not set: run through scripts/e2e.sh");
  const out = execFileSync(
    "psql",
    ["-h", "127.0.0.1", "-U", "postgres", "-d", db, "-qAt", "-v", "ON_ERROR_STOP=1"].concat([
      "-c",
      `INSERT INTO azure_labs (name, spec, status, planned, progress, error, resource_group)
       VALUES ('${name}', '{}'::jsonb, 'failed',
               '["resource group mcscope-${name}", "virtual network ${name}-vnet"]'::jsonb,
               '[]'::jsonb, '${ERROR}', 'mcscope-${name}')
       RETURNING id`,
    ]),
    { encoding: "utf8" },
  );
  return Number(out.trim().split("\n")[0]);
}

beforeAll(async () => {
  labId = seedFailedLab();
  browser = await launch();
  page = await browser.newPage({ viewport: { width: 1360, height: 900 } });
});

afterAll(async () => {
  await browser?.close();
});

describe("a failed Azure creation on the Testbeds page", () => {
  it("shows failed with its error, offers the state table's actions, and Delete removes it", async () => {
    const states = await api<AzureLabStatesPublic>("/azure-labs/states");
    // What the one state table allows from "failed" (the page must offer exactly this).
    const allowed = states.data
      .filter((t) => t.action !== null && t.from_states.includes("failed"))
      .map((t) => t.action);
    expect(allowed).toEqual(["delete"]);

    await page.goto(`${BASE_URL}/testbeds`);
    const lab = page.getByTestId(`azure-lab-${name}`);
    await lab.waitFor();
    expect(await lab.locator(".badge").first().textContent()).toBe("failed");
    expect(await page.getByTestId(`azure-lab-error-${name}`).textContent()).toBe(ERROR);
    const offered = await lab.locator(".actions button").allTextContents();
    expect(offered).toEqual(["Delete…"]);
    // The states table is on the page, with the row that allows deleting a failed lab.
    const table = page.getByTestId("azure-lab-states");
    await table.locator("summary").click();
    const deleteRow = table.locator("tbody tr", { hasText: /^delete/ });
    expect(await deleteRow.locator("td").nth(1).textContent()).toContain("failed");
    await screenshot(page, "azure-failed");

    await lab.getByRole("button", { name: "Delete…" }).click();
    // Nothing was made on Azure: the confirmation says only the record goes.
    expect(await lab.locator("form label").textContent()).toContain(
      "Its creation made nothing on Azure: deleting removes this record only.",
    );
    await lab.locator('input[name="confirm-name"]').fill(name);
    await lab.getByRole("button", { name: `Delete ${name}` }).click();
    await expect
      .poll(async () => lab.locator(".badge").first().textContent(), { timeout: 10_000 })
      .toBe("deleted");
    expect(await lab.locator(".actions button").count()).toBe(0);
    expect(await lab.locator("form").count()).toBe(0);
    await screenshot(page, "azure-failed-deleted");

    // The server agrees: deleted at once, with nothing left to act on.
    const served = await api<AzureLabPublic>(`/azure-labs/${labId}`);
    expect(served.status).toBe("deleted");
    expect(served.deleted_at).not.toBeNull();
    expect(served.actions).toEqual([]);
  });
});
