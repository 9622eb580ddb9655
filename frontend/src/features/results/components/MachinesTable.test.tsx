import { cleanup, render, screen } from "@testing-library/react";
import { NuqsTestingAdapter } from "nuqs/adapters/testing";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ExperimentRunsService, type MachinesPublic } from "@/api";
import { ResultsSelectionProvider } from "@/lib/urlState/resultsSelection";
import { TestQueries } from "@/test/api";
import { MachinesTable } from "./MachinesTable";

const served: MachinesPublic = {
  window_start_s: null,
  window_end_s: null,
  saturated_share: 0.9,
  data: [
    {
      configuration_id: 3,
      index: 0,
      values: { workers: 8 },
      host_cpus: 2,
      host_cpu_busy_pct: 193,
      host_cpu_user_pct: 120,
      host_cpu_system_pct: 73,
      host_cpu_iowait_pct: 0,
      host_cpu_steal_pct: 1,
      host_utilization: 0.965,
      process_cpu_pct: 80,
      process_utilization: 0.4,
      process_cpu_pct_by_role: { middleware: 50, server: 30 },
      net_bytes_per_s: 2_500_000,
      saturated: true,
      summary: "hosts' CPU saturated: 1.93 of 2 cores busy; mcscope's processes 0.80 cores of it",
    },
  ],
};

/** The table inside the providers the Results tab gives it (URL state, queries, selection). */
function renderTable() {
  render(
    <NuqsTestingAdapter>
      <TestQueries>
        <ResultsSelectionProvider experimentId={1} name="e" poll={false}>
          <MachinesTable />
        </ResultsSelectionProvider>
      </TestQueries>
    </NuqsTestingAdapter>,
  );
}

describe("MachinesTable", () => {
  afterEach(() => {
    cleanup();
    vi.restoreAllMocks();
  });

  it("shows the hosts' whole CPU beside mcscope's processes and names the saturation", async () => {
    vi.spyOn(ExperimentRunsService, "readMachines").mockResolvedValue({ data: served } as never);
    renderTable();
    const table = await screen.findByTestId("machines-table");
    const row = table.querySelector("tbody tr");
    expect(row?.className).toBe("warning-row");
    const cells = [...(row?.querySelectorAll("td") ?? [])].map((td) => td.textContent);
    expect(cells[2]).toBe("1.93"); // hosts busy, in cores
    expect(cells[7]).toBe("97 %"); // the hosts' utilization
    expect(cells[8]).toBe("0.8 (40 %)"); // mcscope's processes, beside it
    expect(cells.at(-1)).toContain("saturated");
    // No host records a link cap: no links column.
    expect(screen.queryByTestId("machines-links")).toBeNull();
  });

  it("shows each capped link against its cap and names a saturated one", async () => {
    const row = served.data[0];
    if (!row) throw new Error("fixture has a row");
    const linked: MachinesPublic = {
      ...served,
      data: [
        {
          ...row,
          links: [
            {
              host: "az1",
              role: "server",
              cap_mbit_s: 101,
              cap_basis: "measured",
              tx_bytes_per_s: 12_500_000,
              utilization: 0.99,
              saturated: true,
            },
          ],
          summary: "server link of az1 saturated: sends 100 of 101 Mbit/s (99 %); hosts' CPU ...",
        },
      ],
    };
    vi.spyOn(ExperimentRunsService, "readMachines").mockResolvedValue({ data: linked } as never);
    renderTable();
    const cell = await screen.findByTestId("machines-links");
    expect(cell.textContent).toBe("server az1: 99 % of 101 Mbit/s");
  });
});
