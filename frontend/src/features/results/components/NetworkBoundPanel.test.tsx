import { render, screen } from "@testing-library/react";
import type { ReactNode } from "react";
import { MemoryRouter } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import { type Call, createWrapper, mockApi } from "@/test/api";
import { SERVED_METRICS, SERVED_PARAMETERS } from "@/test/served";
import { NetworkBoundPanel } from "./NetworkBoundPanel";

afterEach(() => vi.unstubAllGlobals());

const BOUND = "/api/v1/analysis/experiments/7/network-bound";

// The API's answer for a testbed with no bandwidth known (FastAPI's 422 shape).
const NO_BANDWIDTH = {
  detail: [{ loc: ["query", "testbed"], msg: "no bandwidth known on this experiment's testbed" }],
};

function renderPanel(answer: (call: Call) => [number, unknown]): Call[] {
  const calls = mockApi((call) => {
    if (call.path === "/api/v1/experiments/7") {
      return [200, { id: 7, name: "e", status: "finished", kind: "designed", testbed_id: 3 }];
    }
    if (call.path.endsWith("/metrics")) return [200, SERVED_METRICS];
    if (call.path.endsWith("/parameters")) return [200, SERVED_PARAMETERS];
    return answer(call);
  });
  const { wrapper: Query } = createWrapper();
  const wrapper = ({ children }: { children: ReactNode }) => (
    <MemoryRouter>
      <Query>{children}</Query>
    </MemoryRouter>
  );
  render(<NetworkBoundPanel experimentId={7} requestType="all" window={null} />, { wrapper });
  return calls;
}

describe("NetworkBoundPanel", () => {
  it("points at the testbed's bandwidth button when the API says none is known", async () => {
    const calls = renderPanel(() => [422, NO_BANDWIDTH]);
    const link = await screen.findByRole("link", { name: "its card" });
    expect(link.getAttribute("href")).toBe("/testbeds#testbed-3");
    expect(calls.filter((c) => c.path === BOUND)).toHaveLength(1);
  });

  it("says the server failed, with its reason, rather than asking for a bandwidth", async () => {
    const calls = renderPanel(() => [500, { detail: "database unavailable" }]);
    const shown = await screen.findByTestId("network-bound-failed");
    expect(shown.textContent).toContain("database unavailable");
    expect(screen.queryByTestId("network-bound-unavailable")).toBeNull();
    // Not the server's answer: tried twice more before it is shown.
    expect(calls.filter((c) => c.path === BOUND)).toHaveLength(3);
  });

  it("shows the table once a retry is answered", async () => {
    let asked = 0;
    renderPanel((call) => {
      if (call.path !== BOUND) return [404, { detail: "Not Found" }];
      asked += 1;
      if (asked === 1) return [503, { detail: "busy" }];
      return [200, { sizes_note: "4,096 B values", data: [] }];
    });
    await screen.findByTestId("network-bound");
    expect(asked).toBe(2);
  });
});
