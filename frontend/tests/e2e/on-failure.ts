// When a browser test fails, what its pages showed: each open page's URL, the toasts on it
// (an error message, or something covering a button), its disabled buttons (a click that
// waits), the requests it sent that had no answer yet and those that failed (a request never
// sent and one never answered look the same from a timeout), and a full-page screenshot, so a
// timeout in CI can be read against the page and not only against the API's log. With
// MCSCOPE_TEST_FAILURES set (make test), the failed test and its pages are also appended to
// that file, which make test's summary prints last.
import { appendFileSync, mkdirSync } from "node:fs";
import { afterEach } from "vitest";
import { launched, requests } from "./browser";

const FAILURE_DIR = process.env.E2E_FAILURES ?? "test-results/failures";
const SUMMARY = process.env.MCSCOPE_TEST_FAILURES;

afterEach(async (ctx) => {
  if (ctx.task.result?.state !== "fail") return;
  mkdirSync(FAILURE_DIR, { recursive: true });
  const name = ctx.task.name.replace(/[^a-z0-9]+/gi, "-").slice(0, 60);
  const error = (ctx.task.result.errors?.[0]?.message ?? "").split("\n", 1)[0]?.slice(0, 200);
  const lines = [`e2e ${ctx.task.file?.name ?? ""} > ${ctx.task.name}: ${error}`];
  let n = 0;
  for (const browser of launched) {
    for (const context of browser.contexts()) {
      for (const page of context.pages()) {
        n += 1;
        const path = `${FAILURE_DIR}/${name}-${n}.png`;
        const seen = requests.get(page);
        const now = Date.now();
        const pending = [...(seen?.pending.values() ?? [])].map(
          (r) => `${r.what} (${((now - r.sent) / 1000).toFixed(1)} s)`,
        );
        // Known without asking the page, so kept when the page no longer answers.
        const network =
          `unanswered requests: ${JSON.stringify(pending)}; ` +
          `failed requests: ${JSON.stringify(seen?.failed ?? [])}`;
        try {
          const toasts = (await page.locator(".toasts > *").allTextContents()).filter(Boolean);
          const disabled = await page.locator("button:disabled").allTextContents();
          await page.screenshot({ path, fullPage: true, timeout: 10_000 });
          lines.push(
            `  page ${n}: ${page.url()}; toasts: ${JSON.stringify(toasts)}; ` +
              `disabled buttons: ${JSON.stringify(disabled)}; ${network}; screenshot: ${path}`,
          );
        } catch (err) {
          lines.push(`  page ${n}: ${page.url()} (not captured: ${err}); ${network}`);
        }
      }
    }
  }
  console.error(lines.join("\n"));
  if (SUMMARY) appendFileSync(SUMMARY, `${lines.join("\n")}\n`);
});
