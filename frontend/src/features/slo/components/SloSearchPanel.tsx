// A latency-SLO search on its experiment page: the objective, the answer with its confidence
// once found, latency falling with load and the load generator's sending pattern, and every
// probe as it completes (its runs are in the Runs tab too).
import { useEffect } from "react";
import { Link } from "react-router";
import type { SloProbePublic } from "@/api";
import { handleError } from "@/components/common/handleError";
import { PendingBlock } from "@/components/common/PendingBlock";
import { useGetSloSearchQuery } from "../hooks/useGetSloSearchQuery";
import { formatEstimate, rate } from "../utils/format";
import { SloFindings } from "./SloFindings";

/** Props of SloSearchPanel. */
export interface SloSearchPanelProps {
  experimentId: number;
  /** the experiment has runs queued or running */
  active: boolean;
}

const STATE_TEXT = {
  not_started: "not started",
  searching: "searching",
  done: "done",
  stopped: "stopped",
} as const;

export function SloSearchPanel({ experimentId, active }: SloSearchPanelProps) {
  const { search, isLoading, error } = useGetSloSearchQuery(experimentId, active);
  useEffect(() => {
    if (error) handleError(error);
  }, [error]);
  if (isLoading || !search) return <PendingBlock label="Loading the search" rows={3} />;
  const pct = Math.round(search.confidence * 100);
  return (
    <section className="card" data-testid="slo-search">
      <div className="section-header">
        <h2>
          Latency-SLO search: {search.objective} at {pct} % confidence
        </h2>
        <span className="hint" data-testid="slo-state">
          {STATE_TEXT[search.state]} · {search.runs} probe run{search.runs === 1 ? "" : "s"} ·{" "}
          {search.reason}
        </span>
      </div>
      {search.state === "done" && (
        <p data-testid="slo-answer">
          {search.answer_rate_per_connection == null ? (
            <strong>No probed load meets the objective.</strong>
          ) : (
            <>
              <strong>
                Highest load meeting it: {rate(search.answer_offered_per_s)} offered (
                {search.answer_rate_per_connection}/s × {search.connections} connections),{" "}
                {rate(search.answer_delivered_per_s)} carried.
              </strong>{" "}
              Clients: {formatEstimate(search.answer_client)}
              {search.answer_middleware &&
                `; middleware: ${formatEstimate(search.answer_middleware)}`}{" "}
              ({pct} % interval from order statistics of the merged histograms).
            </>
          )}
        </p>
      )}
      <SloFindings search={search} />
      <div className="scroll">
        <table className="table" data-testid="slo-probes">
          <thead>
            <tr>
              <th>Offered</th>
              <th>Per connection</th>
              <th>Carried</th>
              <th>Clients (merged) [{pct} % CI]</th>
              <th>Middleware [{pct} % CI]</th>
              <th>Runs</th>
              <th>Verdict</th>
            </tr>
          </thead>
          <tbody>
            {search.probes.map((p) => (
              <ProbeRow key={p.configuration_id} probe={p} />
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

function ProbeRow({ probe }: { probe: SloProbePublic }) {
  return (
    <tr data-verdict={probe.verdict ?? "pending"}>
      <td>{rate(probe.offered_per_s)}</td>
      <td>{probe.rate_per_connection}/s</td>
      <td>{rate(probe.delivered_per_s)}</td>
      <td>{formatEstimate(probe.client)}</td>
      <td>{formatEstimate(probe.middleware)}</td>
      <td>
        {probe.run_ids.map((id, i) => (
          <span key={id}>
            {i > 0 && ", "}
            <Link to={`/runs/${id}`}>#{id}</Link>
          </span>
        ))}
      </td>
      <td>{probe.verdict ?? "running"}</td>
    </tr>
  );
}
