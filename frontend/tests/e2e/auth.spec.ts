// End-to-end: without a token the UI sends you to the login page; a wrong token is refused
// there, the right one brings you back where you were; logging out forgets it.
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BASE_URL, launch, screenshot, TOKEN } from "./browser";

let browser: Browser;
let page: Page;

beforeAll(async () => {
  browser = await launch({ loggedIn: false });
  page = await browser.newPage({ viewport: { width: 1360, height: 900 } });
});

afterAll(async () => {
  await browser?.close();
});

describe("login", () => {
  it("is configured by the harness", () => {
    expect(TOKEN).toMatch(/^mcs_/);
  });

  it("sends an unauthenticated visitor to the login page", async () => {
    await page.goto(`${BASE_URL}/experiments?q=abc`);
    await page.getByRole("button", { name: "Log in" }).waitFor();
    expect(new URL(page.url()).pathname).toBe("/login");
    expect(new URL(page.url()).searchParams.get("next")).toBe("/experiments?q=abc");
  });

  it("refuses a wrong token at the field", async () => {
    await page.locator('input[name="token"]').fill("mcs_wrong");
    await page.getByRole("button", { name: "Log in" }).click();
    const error = page.getByTestId("error-token");
    await error.waitFor();
    expect(await error.textContent()).toContain("not valid");
    await screenshot(page, "login-refused");
  });

  it("logs in with the right token and returns to the page asked for", async () => {
    await page.locator('input[name="token"]').fill(TOKEN);
    await page.getByRole("button", { name: "Log in" }).click();
    await page.getByRole("heading", { name: "Experiments" }).waitFor();
    expect(`${new URL(page.url()).pathname}${new URL(page.url()).search}`).toBe(
      "/experiments?q=abc",
    );
    await screenshot(page, "logged-in");
  });

  it("logs out", async () => {
    await page.getByRole("button", { name: "Log out" }).click();
    await page.getByRole("button", { name: "Log in" }).waitFor();
    expect(await page.evaluate(() => window.localStorage.getItem("mcscope.token"))).toBeNull();
  });
});
