// End-to-end: a report item is the view it was added from. On the results page of a seeded
// 3 x 2 experiment the user plots throughput against clients per thread with one line per
// worker count and adds it to the report; changing the page later leaves the item alone, the
// report tab draws the item from its stored selection (the same figure JSON the page had), and
// "Update in report" puts the current view into it.
import type { Browser, Page, Response } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ReportPublic } from "@/api";
import type { FigureJson } from "@/lib/hooks/useServerFigureQuery";
import { api, BASE_URL, launch, screenshot } from "./browser";
import { createSeeded, type SeededExperiment } from "./seed";

let browser: Browser;
let page: Page;
let exp: SeededExperiment;
const NAME = `e2e-report-views-${Date.now()}`;
const figureId = `figure-${NAME}-throughput-middleware-all`;

beforeAll(async () => {
  exp = await createSeeded(NAME, [8, 16], [1, 4, 8]);
  browser = await launch();
  page = await browser.newPage({ viewport: { width: 1360, height: 900 } });
});

afterAll(async () => {
  await browser?.close();
});

/** The next throughput figure JSON the page fetches whose URL has `needle`. */
function throughputJson(needle: string): Promise<Response> {
  return page.waitForResponse(
    (r) => r.url().includes("/figures/throughput.json") && r.url().includes(needle),
  );
}

/** What a reader sees of a figure: axis titles, lines and their points. */
function axes(fig: FigureJson) {
  const title = (axis: unknown) => (axis as { title?: { text?: string } })?.title?.text;
  return {
    x: title(fig.layout.xaxis),
    y: title(fig.layout.yaxis),
    lines: fig.data
      .filter((t) => (t as { showlegend?: boolean }).showlegend !== false)
      .map((t) => ({ name: t.name, x: (t as { x?: unknown }).x, y: (t as { y?: unknown }).y })),
    caption: fig.layout.meta?.caption,
  };
}

async function lastItem(): Promise<NonNullable<ReportPublic["items"][number]>> {
  const report = await api<ReportPublic>(`/experiments/${exp.id}/report`);
  const item = report.items.at(-1);
  if (!item) throw new Error("empty report");
  return item;
}

describe("report items are views", () => {
  let shown: ReturnType<typeof axes>;

  it("adds the throughput figure as the user set it up", async () => {
    await page.goto(`${BASE_URL}/experiments/${exp.id}`);
    const view = page.getByTestId("results-view");
    await view.waitFor();
    await view.getByLabel("Source").selectOption("middleware");
    // The default x is the first factor as given (workers): the user turns the view around.
    const drawn = throughputJson("x=clients_per_thread");
    await view.getByLabel("x axis").selectOption("clients_per_thread");
    const fig = (await (await drawn).json()) as FigureJson;
    shown = axes(fig);
    expect(shown.x).toBe("Clients per thread");
    expect(shown.lines.map((l) => l.name)).toEqual(["8 worker threads", "16 worker threads"]);
    expect(await view.getByLabel("one line per").inputValue()).toBe("workers");
    await page.getByTestId(figureId).locator(".js-plotly-plot").waitFor();
    await page.getByTestId(figureId).getByTestId("add-to-report").click();
    await page.getByText("Added to the report").waitFor();
    await screenshot(page, "report-view-added");
    const item = await lastItem();
    expect(item).toMatchObject({ kind: "figure", name: "throughput", origin: "experiment" });
    expect(item.selection).toMatchObject({
      x: "clients_per_thread",
      series: "workers",
      source: "middleware",
    });
  });

  it("keeps the item when the page changes", async () => {
    const view = page.getByTestId("results-view");
    const drawn = throughputJson("x=workers");
    await view.getByLabel("x axis").selectOption("workers");
    const fig = (await (await drawn).json()) as FigureJson;
    expect(axes(fig).x).toBe("Worker threads");
    expect((await lastItem()).selection).toMatchObject({ x: "clients_per_thread" });
  });

  it("draws the item on the report tab as the page had it", async () => {
    const drawn = throughputJson("x=clients_per_thread");
    await page.getByRole("tab", { name: "Report" }).click();
    await page.getByTestId("report-builder").waitFor();
    const fig = (await (await drawn).json()) as FigureJson;
    // The report serves the very figure the page showed: axes, lines, points and caption.
    expect(axes(fig)).toEqual(shown);
    expect(shown.caption).toContain(
      "Throughput against clients per thread, one line per worker threads (middleware side",
    );
    const item = page.getByTestId("report-item").last();
    await item.getByTestId("report-item-figure").locator(".js-plotly-plot").waitFor();
    expect(await item.locator(".xtitle").textContent()).toBe("Clients per thread");
    expect(await item.getByTestId("report-item-caption").textContent()).toBe(shown.caption);
    await screenshot(page, "report-view-item");
  });

  it("updates the item from the current view on request", async () => {
    await page.goto(`${BASE_URL}/experiments/${exp.id}?source=middleware&x=workers`);
    const view = page.getByTestId("results-view");
    await view.waitFor();
    expect(await view.getByLabel("x axis").inputValue()).toBe("workers");
    await page.getByTestId(figureId).getByTestId("update-report-item").click();
    await page.getByText("Report item updated").waitFor();
    const item = await lastItem();
    expect(item.selection).toMatchObject({ x: "workers", series: "clients_per_thread" });
    const report = await api<ReportPublic>(`/experiments/${exp.id}/report`);
    // Updated in place: still one item of this view, the defaults' throughput item untouched.
    expect(report.items.filter((i) => i.name === "throughput")).toHaveLength(2);
    expect(report.items.find((i) => i.name === "throughput")?.selection ?? null).toBeNull();
  });
});
