import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import type { AzureLabPublic } from "@/api";
import { TestQueries } from "@/test/api";
import { AzureLabPanel } from "./AzureLabPanel";

function lab(over: Partial<AzureLabPublic>): AzureLabPublic {
  return {
    id: 7,
    name: "lab",
    status: "ready",
    planned: ["resource group g", "virtual machine a"],
    progress: [],
    error: null,
    resource_group: "mcscope-lab",
    expires_at: null,
    testbed_id: null,
    budget: null,
    deleted_at: null,
    created_at: "2026-11-28T12:00:00Z",
    actions: [],
    ...over,
  };
}

function show(l: AzureLabPublic) {
  render(
    <TestQueries>
      <AzureLabPanel lab={l} />
    </TestQueries>,
  );
}

const buttons = () => screen.queryAllByRole("button").map((b) => b.textContent);

describe("AzureLabPanel", () => {
  afterEach(cleanup);

  it("offers only the actions the served state allows", () => {
    show(lab({ status: "ready", actions: ["stop", "delete"] }));
    expect(buttons()).toEqual(["Stop (deallocate)", "Delete…"]);
  });

  it("lets a failed creation be deleted, and offers nothing else", () => {
    show(lab({ status: "failed", error: "creating failed: no subscription", actions: ["delete"] }));
    expect(buttons()).toEqual(["Delete…"]);
    fireEvent.click(screen.getByRole("button", { name: "Delete…" }));
    // Nothing was made on Azure: the confirmation says only the record goes.
    expect(screen.getByText(/made nothing on Azure/)).toBeTruthy();
  });

  it("offers nothing while a worker is on it", () => {
    show(lab({ status: "deleting", actions: [] }));
    expect(buttons()).toEqual([]);
  });
});
