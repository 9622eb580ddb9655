import { render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { ReportPublic } from "@/api";
import { configureApiClient } from "@/lib/client";
import { queryKeys } from "@/lib/queryKeys";
import { createWrapper, TEST_BASE } from "@/test/api";
import { ReportView } from "./ReportView";

afterEach(() => vi.unstubAllGlobals());

const REPORT: ReportPublic = {
  experiment_id: 7,
  hypothesis: "",
  hypothesis_at: null,
  hypothesis_before_runs: false,
  notes: "",
  items: [{ kind: "figure", name: "response-time", origin: "experiment", selection: {} }],
};

function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "Content-Type": "application/json" },
  });
}

describe("ReportView", () => {
  it("titles its items from the figure list, never by their keys while it loads", async () => {
    configureApiClient(TEST_BASE);
    let releaseFigures: () => void = () => {};
    const figuresSent = new Promise<void>((resolve) => {
      releaseFigures = resolve;
    });
    vi.stubGlobal("fetch", async (input: Request) => {
      const path = new URL(input.url).pathname;
      if (path === "/api/v1/experiments/7/report") return json(REPORT);
      if (path === "/api/v1/experiments/7/tables") return json({ data: [], count: 0 });
      if (path === "/api/v1/experiments/7/figures") {
        await figuresSent;
        return json({ data: [{ name: "response-time", title: "Response time" }], count: 1 });
      }
      return json({ detail: "not in this test" }, 404);
    });
    const { wrapper, queryClient } = createWrapper();
    render(<ReportView experimentId={7} name="e" />, { wrapper });
    // The report and the table list are in; the figure list is not: still loading.
    await vi.waitFor(() => {
      expect(queryClient.getQueryData(queryKeys.experiments.report(7))).toBeDefined();
      expect(queryClient.getQueryData(queryKeys.experiments.tableList(7))).toBeDefined();
    });
    expect(screen.getByRole("status", { name: "Loading report" })).toBeTruthy();
    expect(screen.queryByText(/response-time/)).toBeNull();
    releaseFigures();
    const heading = await screen.findByText("Figure: Response time");
    expect(heading.tagName).toBe("STRONG");
    expect(screen.queryByText(/response-time/)).toBeNull();
  });
});
