// End-to-end: the repetition rule on the design form (a 422 at its field), on the experiment
// page and in the summary table; the saturation knee marked on the results page's figures.
// Runs seeded through the worker's real path (seed.ts): the seeded closed system saturates
// at 3,000 + 40 x 8 = 3,320 ops/s with 8 workers, so with N = 6 x clients per thread the
// throughput first reaches 95 % of it at 8 clients per thread (48 clients, 3,200 ops/s).
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ExperimentPublic } from "@/api";
import { api, BASE_URL, launch, screenshot } from "./browser";
import { seedRuns } from "./seed";

let browser: Browser;
let page: Page;
let exp: ExperimentPublic;
const stamp = Date.now();

beforeAll(async () => {
  exp = await api<ExperimentPublic>("/experiments", {
    method: "POST",
    body: JSON.stringify({
      name: `rule-knee-${stamp}`,
      template: "write_throughput",
      factors: { clients_per_thread: [1, 2, 4, 8, 16, 32], workers: [8] },
      fixed: {
        servers: 3,
        middlewares: 1,
        ratio: "1:0",
        client_machines: 3,
        threads_per_instance: 2,
      },
      repetition_rule: { half_width_pct: 5, min_repetitions: 3, max_repetitions: 8 },
      run_time_s: 20,
      warmup_s: 4,
      cooldown_s: 4,
    }),
  });
  seedRuns(exp.id);
  browser = await launch();
  const context = await browser.newContext({ viewport: { width: 1360, height: 900 } });
  page = await context.newPage();
}, 300_000);

afterAll(async () => {
  await browser?.close();
});

describe("repetition rule and knee", () => {
  it("sets a rule on the design form and names its bad field", async () => {
    await page.goto(`${BASE_URL}/experiments/new?from=${exp.id}`);
    const rule = page.getByTestId("repetition-rule");
    await rule.waitFor();
    expect(await rule.locator('input[name="rule-on"]').isChecked()).toBe(true);
    expect(await rule.locator('input[name="rule-max_repetitions"]').inputValue()).toBe("8");
    await rule.locator('input[name="rule-max_repetitions"]').fill("2");
    const error = page.getByTestId("error-rule-max_repetitions");
    await error.waitFor();
    expect(await error.textContent()).toBe("must be at least min_repetitions (3)");
    expect(await page.getByTestId("rule-hint").textContent()).toContain("runs 3 times");
    await screenshot(page, "repetition-rule-form");
  });

  it("states the rule, each n's reason and marks the knee", async () => {
    await page.goto(`${BASE_URL}/experiments/${exp.id}`);
    await page.getByTestId("results-view").waitFor();
    expect(await page.getByTestId("repetitions").textContent()).toBe(
      "3 or more, until the 95 % interval of the mean throughput (client) is within ±5 % " +
        "of the mean (3 to 8 repetitions)",
    );
    // Seeded repetitions differ by 1 % steps: three meet a 5 % target everywhere.
    const reasons = page.getByTestId("repetitions-reason");
    await reasons.first().waitFor();
    const why = await reasons.allTextContents();
    expect(why).toHaveLength(6);
    for (const t of why) expect(t).toMatch(/^target met at n=3, half-width \d\.\d % <= 5 %$/);
    const fig = await api<{
      layout: { meta: { knees: { load: number; response_time_us: number }[] } };
    }>(`/experiments/${exp.id}/figures/throughput.json`);
    const [knee] = fig.layout.meta.knees;
    expect(knee?.load).toBe(8);
    expect(Math.abs((knee?.response_time_us ?? 0) - 15_000) / 15_000).toBeLessThan(0.01);
    // Drawn on both figures: the label with the response time at the knee.
    const figures = page.locator(".figure .main-svg");
    await figures.nth(1).waitFor();
    await screenshot(page, "knee-on-results");
    const drawn = await page.locator(".figure svg text").allTextContents();
    const labels = drawn.filter((t) => t.startsWith("knee"));
    expect(labels, drawn.join(" | ")).toHaveLength(2);
    for (const t of labels) expect(t).toMatch(/^knee, 1[45],\d{3} us$/);
  });
});
