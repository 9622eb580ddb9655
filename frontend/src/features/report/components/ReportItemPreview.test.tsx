import { render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { ReportItem } from "@/api";
import { createWrapper } from "@/test/api";
import { ReportItemPreview } from "./ReportItemPreview";

afterEach(() => vi.unstubAllGlobals());

const UNEQUAL = {
  detail: [
    {
      type: "value_error",
      loc: ["query", "responses"],
      msg: "every cell needs the same number of repetitions, found [3, 4]",
    },
  ],
};

describe("ReportItemPreview", () => {
  it("says in place why a table item is left out of the bundle", async () => {
    const urls: string[] = [];
    vi.stubGlobal("fetch", async (url: string) => {
      urls.push(url);
      return new Response(JSON.stringify(UNEQUAL), {
        status: 422,
        headers: { "Content-Type": "application/json" },
      });
    });
    const item: ReportItem = {
      kind: "table",
      name: "factorial",
      origin: "experiment",
      selection: { source: "client" },
    };
    const { wrapper } = createWrapper();
    render(<ReportItemPreview item={item} experimentId={7} />, { wrapper });
    const shown = await screen.findByTestId("table-unavailable");
    expect(shown.textContent).toBe(
      "This table cannot be drawn: responses: every cell needs the same number of repetitions, " +
        "found [3, 4] (left out of the bundle)",
    );
    expect(urls).toEqual(["/api/v1/experiments/7/tables/factorial.csv?source=client"]);
  });
});
