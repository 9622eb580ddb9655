import { cleanup, render, screen } from "@testing-library/react";
import { MemoryRouter } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ExperimentsService } from "@/api";
import { TestQueries } from "@/test/api";
import { NetworkBoundHint } from "./NetworkBoundHint";

function renderFor(experiment: Record<string, unknown>) {
  vi.spyOn(ExperimentsService, "readExperiment").mockResolvedValue({
    data: { id: 1, name: "e", status: "finished", ...experiment },
  } as never);
  render(
    <MemoryRouter>
      <TestQueries>
        <NetworkBoundHint experimentId={1} />
      </TestQueries>
    </MemoryRouter>,
  );
}

describe("NetworkBoundHint", () => {
  afterEach(() => {
    cleanup();
    vi.restoreAllMocks();
  });

  it("says imported runs have no known machines, not that they ran on the local testbed", async () => {
    renderFor({ kind: "imported", testbed_id: null });
    const hint = await screen.findByText(/these runs were imported/);
    expect(hint.textContent).not.toContain("local testbed");
  });

  it("says the local testbed talks over loopback", async () => {
    renderFor({ kind: "designed", testbed_id: null });
    expect((await screen.findByText(/local testbed/)).textContent).toContain("loopback");
  });

  it("points a remote testbed at its card's bandwidth button", async () => {
    renderFor({ kind: "designed", testbed_id: 7 });
    const link = await screen.findByRole("link", { name: "its card" });
    expect(link.getAttribute("href")).toBe("/testbeds#testbed-7");
  });
});
