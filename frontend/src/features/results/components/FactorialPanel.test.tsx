import { render, screen } from "@testing-library/react";
import { NuqsTestingAdapter } from "nuqs/adapters/testing";
import type { ReactNode } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ResultsSelectionProvider } from "@/lib/urlState/resultsSelection";
import { type Call, createWrapper, mockApi } from "@/test/api";
import { SERVED_PARAMETERS } from "@/test/served";
import { FactorialPanel } from "./FactorialPanel";

afterEach(() => vi.unstubAllGlobals());

// What the API answers for a 2^2 grid whose cells have unequal n (FastAPI's 422 shape).
const UNEQUAL = {
  detail: [
    {
      type: "value_error",
      loc: ["query", "responses"],
      msg: "every cell needs the same number of repetitions, found [3, 4]",
      input: null,
    },
  ],
};

function answer(call: Call): [number, unknown] {
  if (call.path.endsWith("/parameters")) return [200, SERVED_PARAMETERS];
  if (call.path === "/api/v1/analysis/experiments/7/factorial") return [422, UNEQUAL];
  return [404, { detail: "Not Found" }];
}

function renderPanel() {
  const { wrapper: Query } = createWrapper();
  const wrapper = ({ children }: { children: ReactNode }) => (
    <NuqsTestingAdapter>
      <Query>
        <ResultsSelectionProvider experimentId={7} name="e" poll={false}>
          {children}
        </ResultsSelectionProvider>
      </Query>
    </NuqsTestingAdapter>
  );
  render(<FactorialPanel />, { wrapper });
}

describe("FactorialPanel", () => {
  it("says in place why the analysis cannot be drawn, in the API's words", async () => {
    const calls = mockApi(answer);
    renderPanel();
    const shown = await screen.findByTestId("factorial-unavailable");
    expect(shown.textContent).toBe(
      "The factorial analysis cannot be drawn: responses: every cell needs the same number of " +
        "repetitions, found [3, 4]",
    );
    expect(shown.textContent).not.toContain("appears once");
    // A 4xx is the server's answer: asked once, not retried.
    expect(calls.filter((c) => c.path.endsWith("/factorial"))).toHaveLength(1);
  });
});
