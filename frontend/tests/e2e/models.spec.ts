// End-to-end: the queueing calculators against the real analysis API and the published checks.
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BASE_URL, launch, screenshot } from "./browser";

let browser: Browser;
let page: Page;

beforeAll(async () => {
  browser = await launch();
  page = await browser.newPage({ viewport: { width: 1360, height: 900 } });
  await page.goto(`${BASE_URL}/models`);
});

afterAll(async () => {
  await browser?.close();
});

interface Trace {
  name: string;
  x: number[];
  y: number[];
}

async function quantity(table: string, label: string): Promise<string> {
  const cell = page.getByTestId(table).locator(`td[data-quantity="${label}"]`);
  return (await cell.textContent())?.trim() ?? "";
}

describe("models", () => {
  it("solves M/M/1 for the published check (Jain box 31.1)", async () => {
    const form = page.getByTestId("calc-mm1");
    await form.getByRole("button", { name: "Solve" }).click();
    await page.getByTestId("result-mm1").waitFor();
    expect(await quantity("result-mm1", "utilization ρ")).toBe("86.89");
    expect(await quantity("result-mm1", "E[n] jobs in system")).toBe("6.6258");
    expect(await quantity("result-mm1", "E[r] response time")).toBe("366.84");
    expect(await quantity("result-mm1", "E[w] waiting time")).toBe("318.73");
  });

  it("shows the server's message for an unstable queue under the arrival rate", async () => {
    await page.locator('input[name="mm1-arrival_rate_per_s"]').fill("30000");
    await page.getByTestId("calc-mm1").getByRole("button", { name: "Solve" }).click();
    const error = page.getByTestId("error-mm1-arrival_rate_per_s");
    await error.waitFor();
    expect(await error.textContent()).toContain("unstable");
    expect(await page.getByTestId("result-mm1").count()).toBe(0);
  });

  it("solves M/M/m for the published check (Jain box 31.2)", async () => {
    await page.getByTestId("calc-mmm").getByRole("button", { name: "Solve" }).click();
    await page.getByTestId("result-mmm").waitFor();
    expect(await quantity("result-mmm", "P(queueing)")).toBe("53.17");
    expect(await quantity("result-mmm", "E[n] jobs in system")).toBe("18.0998");
    expect(await quantity("result-mmm", "E[r] response time")).toBe("3,038.95");
  });

  it("solves the one-middleware MVA model: X = 2,940/s, memcached the bottleneck", async () => {
    const [served] = await Promise.all([
      page.waitForResponse(
        (r) => r.url().endsWith("/api/v1/analysis/figures/mva-calculator.json") && r.ok(),
      ),
      page.getByTestId("calc-mva").getByRole("button", { name: "Solve" }).click(),
    ]);
    await page.getByTestId("result-mva").waitFor();
    expect(await page.getByTestId("mva-throughput").textContent()).toBe("2,940 /s");
    expect(await page.getByTestId("mva-bottleneck").textContent()).toBe("memcached");
    // The figure is the server's: what is drawn is the JSON it answered, trace by trace.
    const figure = page.getByTestId("figure-mva");
    const plot = figure.locator(".js-plotly-plot");
    await plot.waitFor();
    const server = (await served.json()) as { data: Trace[] };
    const drawn = await plot.evaluate((gd) =>
      (gd as unknown as { data: Trace[] }).data.map((t) => ({ name: t.name, x: t.x, y: t.y })),
    );
    expect(drawn).toEqual(server.data.map((t) => ({ name: t.name, x: t.x, y: t.y })));
    expect(drawn.map((t) => t.name)).toEqual(["X(N)", "R(N)", "Bound"]);
    expect(drawn[0]?.y.at(-1)).toBeCloseTo(2940, 1);
    expect(await figure.locator(".ytitle").textContent()).toBe("Throughput X (ops/s)");
    expect(await figure.locator(".y2title").textContent()).toBe("Response time R (µs)");
    // The export buttons ask the server for the file at the chosen width.
    const [posted] = await Promise.all([
      page.waitForRequest((r) => r.url().endsWith("/api/v1/analysis/figures/mva-calculator.pdf")),
      figure.getByRole("button", { name: "PDF" }).click(),
    ]);
    expect((posted.postDataJSON() as { width: string }).width).toBe("column");
    await screenshot(page, "models");
  });

  it("shows a 422 at the station's service time", async () => {
    await page.locator('input[name="station-1-service"]').fill("-1");
    await page.getByTestId("calc-mva").getByRole("button", { name: "Solve" }).click();
    const error = page.getByTestId("error-station-1-service");
    await error.waitFor();
    expect(await error.textContent()).toContain("greater than or equal to 0");
  });
});
