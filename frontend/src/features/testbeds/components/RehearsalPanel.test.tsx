import { cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import type { RehearsalPublic } from "@/api";
import { TestQueries } from "@/test/api";
import { RehearsalPanel } from "./RehearsalPanel";

function rehearsal(over: Partial<RehearsalPublic>): RehearsalPublic {
  return {
    id: 3,
    name: "trial",
    status: "ready",
    hosts: [
      {
        name: "trial-server-1",
        role: "server",
        size: "Standard_A1_v2",
        mbit_s: 101,
        basis: "measured",
        bandwidth_source: "the reports' iperf, on Basic_A1",
      },
      {
        name: "trial-client-1",
        role: "client",
        size: "Standard_A2_v2",
        mbit_s: 201,
        basis: "measured",
        bandwidth_source: "the reports' iperf, on Basic_A2",
      },
    ],
    network: "10.232.7.0/24",
    made: [],
    error: null,
    expires_at: "2099-01-01T00:00:00Z",
    deleted_at: null,
    testbed_id: 9,
    created_at: "2026-11-29T01:00:00Z",
    actions: ["delete"],
    like_the_cloud: ["links capped like the VM sizes"],
    unlike_the_cloud: ["the CPUs are this machine's, shared"],
    ...over,
  };
}

function show(r: RehearsalPublic) {
  render(
    <TestQueries>
      <RehearsalPanel rehearsal={r} />
    </TestQueries>,
  );
}

const buttons = () => screen.queryAllByRole("button").map((b) => b.textContent);

describe("RehearsalPanel", () => {
  afterEach(cleanup);

  it("shows each host's size and link cap, and the served words on the cloud", () => {
    show(rehearsal({}));
    const hosts = screen.getByTestId("rehearsal-hosts-trial");
    expect(within(hosts).getByText("101 Mbit/s")).toBeTruthy();
    expect(within(hosts).getByText("201 Mbit/s")).toBeTruthy();
    const words = screen.getByTestId("rehearsal-fidelity-trial");
    expect(within(words).getByText("links capped like the VM sizes")).toBeTruthy();
    expect(within(words).getByText("the CPUs are this machine's, shared")).toBeTruthy();
    expect(screen.getByText(/hosts on 10\.232\.7\.0\/24/)).toBeTruthy();
  });

  it("offers Delete only where the served state allows it, with the name typed again", () => {
    show(rehearsal({}));
    fireEvent.click(screen.getByRole("button", { name: "Delete…" }));
    expect(screen.getByText(/removes its namespaces, links and processes/)).toBeTruthy();
    cleanup();
    show(rehearsal({ status: "deleting", actions: [] }));
    expect(buttons()).toEqual([]);
  });

  it("says why a build failed, and when a deleted one was torn down", () => {
    show(rehearsal({ status: "failed", error: "building the hosts failed: tc refused" }));
    expect(screen.getByTestId("rehearsal-error-trial").textContent).toContain("tc refused");
    cleanup();
    show(rehearsal({ status: "deleted", actions: [], deleted_at: "2026-11-29T02:00:00Z" }));
    expect(screen.getByText(/torn down/)).toBeTruthy();
    expect(screen.queryByTestId("expiry-trial")).toBeNull();
  });
});
