// What a search's result must say beside its answer: latency that falls as the offered load
// rises (with the probes that show it), and how the load generator sends at low rates.
import type { SloSearchPublic } from "@/api";
import { formatEstimate } from "../utils/format";

/** Props of SloFindings. */
export interface SloFindingsProps {
  search: SloSearchPublic;
}

export function SloFindings({ search }: SloFindingsProps) {
  const found = search.non_monotonic;
  const pattern = search.sending_pattern;
  return (
    <>
      {found && (
        <div className="warning" role="alert" data-testid="slo-non-monotonic">
          <p>
            <strong>{found.summary}</strong> The answer is the highest rate shown to meet the
            objective; lower rates may miss it.
          </p>
          <table className="table compact" data-testid="slo-evidence">
            <thead>
              <tr>
                <th>Per connection</th>
                <th>Clients [CI]</th>
                <th>Verdict</th>
              </tr>
            </thead>
            <tbody>
              {found.evidence.map((e) => (
                <tr
                  key={e.rate_per_connection}
                  data-rate={e.rate_per_connection}
                  className={
                    e.rate_per_connection === found.lower.rate_per_connection ||
                    e.rate_per_connection === found.higher.rate_per_connection
                      ? "chosen"
                      : undefined
                  }
                >
                  <td>{e.rate_per_connection}/s</td>
                  <td>{formatEstimate(e.client)}</td>
                  <td>{e.verdict}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <p className="hint" data-testid="slo-sending-pattern">
        <strong>How the load is sent.</strong> {pattern.description} {pattern.advice}
      </p>
    </>
  );
}
