// The machines of one run: CPU of every host and process and traffic per interface, per second
// with the stable window shaded (the server's `resources` figure), and under it, in words, each
// host's whole CPU over the window beside mcscope's processes' share and whether it saturated.
import { ServerPlot } from "@/features/export";

/** Props of RunMachines. */
export interface RunMachinesProps {
  experimentId: number;
  runId: number;
}

export function RunMachines({ experimentId, runId }: RunMachinesProps) {
  return (
    <ServerPlot
      title="Machines: CPU and network"
      testId="run-machines"
      figure={{ experimentId, name: "resources", params: { run_id: runId } }}
      filename={`run-${runId}-machines`}
      unavailable={
        <span data-testid="run-machines-unavailable">
          No machine monitoring was stored for this run (the monitor samples every host and process
          once a second while the load runs).
        </span>
      }
      footer={(meta) => {
        const lines = (meta as { machines?: string[] }).machines ?? [];
        return (
          <ul className="hint" data-testid="run-machines-words">
            {lines.map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
        );
      }}
    />
  );
}
