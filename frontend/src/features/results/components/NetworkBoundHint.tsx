// Why the network bound is missing, and where to get it: a measured bandwidth on the
// experiment's own testbed (its card on the Testbeds page has the button); the local testbed's
// roles talk over loopback, which has no bandwidth to measure.
import { Link } from "react-router";
import { useGetExperimentQuery } from "@/lib/hooks/useGetExperimentQuery";

/** Props of NetworkBoundHint. */
export interface NetworkBoundHintProps {
  experimentId: number;
}

export function NetworkBoundHint({ experimentId }: NetworkBoundHintProps) {
  const { experiment } = useGetExperimentQuery(experimentId);
  // Until the experiment is read, which of the reasons holds is not known.
  if (!experiment) return null;
  const testbedId = experiment.testbed_id ?? null;
  return (
    <p className="hint" data-testid="network-bound-unavailable">
      {experiment.kind === "imported" ? (
        <>
          No network bound: these runs were imported, and mcscope knows neither the machines they
          ran on nor the bandwidth between them.
        </>
      ) : testbedId === null ? (
        <>
          No network bound: this experiment ran on the local testbed, whose roles talk over loopback
          on one machine (no bandwidth to measure).
        </>
      ) : (
        <>
          The network bound per role appears once this experiment's testbed has a measured
          bandwidth: on <Link to={`/testbeds#testbed-${testbedId}`}>its card</Link> under Testbeds,{" "}
          <em>Measure bandwidth (iperf3)</em>.
        </>
      )}
    </p>
  );
}
