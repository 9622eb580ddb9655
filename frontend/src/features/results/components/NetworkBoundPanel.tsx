// The network bound section of the results: the table, or why there is none. Only the API's
// answer that the testbed has no bandwidth gets the hint on where to measure it; any other
// failure (a 5xx, no answer, another 422) says so with its reason, so a server that failed
// never reads as "measure the bandwidth" on a testbed that has it.

import type { RequestType } from "@/api";
import { Unavailable } from "@/components/common/Unavailable";
import { fieldErrors } from "@/lib/apiError";
import type { ResultWindow } from "@/lib/queryKeys";
import { useGetNetworkBoundQuery } from "../hooks/useGetNetworkBoundQuery";
import { NetworkBoundHint } from "./NetworkBoundHint";
import { NetworkBoundTable } from "./NetworkBoundTable";

/** Props of NetworkBoundPanel. */
export interface NetworkBoundPanelProps {
  experimentId: number;
  requestType: RequestType;
  window: ResultWindow | null;
}

export function NetworkBoundPanel({ experimentId, requestType, window }: NetworkBoundPanelProps) {
  const { bound, error } = useGetNetworkBoundQuery(experimentId, requestType, window);
  if (bound) return <NetworkBoundTable bound={bound} />;
  if (!error) return null;
  if ("testbed" in fieldErrors(error)) return <NetworkBoundHint experimentId={experimentId} />;
  return <Unavailable what="The network bound" error={error} testId="network-bound-failed" />;
}
