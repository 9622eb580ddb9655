// When a browser test fails, what its pages showed: each open page's URL, the toasts on it
// (an error message, or something covering a button), its disabled buttons (a click that
// waits) and a full-page screenshot, so a timeout in CI can be read against the page and not
// only against the API's log.
import { mkdirSync } from "node:fs";
import { afterEach } from "vitest";
import { launched } from "./browser";

const FAILURE_DIR = process.env.E2E_FAILURES ?? "test-results/failures";

afterEach(async (ctx) => {
  if (ctx.task.result?.state !== "fail") return;
  mkdirSync(FAILURE_DIR, { recursive: true });
  const name = ctx.task.name.replace(/[^a-z0-9]+/gi, "-").slice(0, 60);
  let n = 0;
  for (const browser of launched) {
    for (const context of browser.contexts()) {
      for (const page of context.pages()) {
        n += 1;
        const path = `${FAILURE_DIR}/${name}-${n}.png`;
        try {
          const toasts = (await page.locator(".toasts > *").allTextContents()).filter(Boolean);
          const disabled = await page.locator("button:disabled").allTextContents();
          await page.screenshot({ path, fullPage: true, timeout: 10_000 });
          console.error(
            `failed test's page ${n}: ${page.url()}; toasts: ${JSON.stringify(toasts)}; ` +
              `disabled buttons: ${JSON.stringify(disabled)}; screenshot: ${path}`,
          );
        } catch (err) {
          console.error(`failed test's page ${n}: ${page.url()} (not captured: ${err})`);
        }
      }
    }
  }
});
