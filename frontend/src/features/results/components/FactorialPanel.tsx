// 2^k r factorial design over the experiment's two-level factors: effects with CIs, variation.
import { useMemo, useState } from "react";
import { Unavailable } from "@/components/common/Unavailable";
import { ServerPlot, TableExportButtons } from "@/features/export";
import { windowQuery } from "@/lib/queryKeys";
import { useResultsViewState } from "@/lib/urlState/results";
import { useResultsSelection } from "@/lib/urlState/resultsSelection";
import { useGetFactorialQuery } from "../hooks/useGetFactorialQuery";
import { FactorialDiagnostics } from "./FactorialDiagnostics";
import { FactorialEffectsTable } from "./FactorialEffectsTable";

export function FactorialPanel() {
  const { experimentId, source, requestType, cut } = useResultsSelection();
  const [{ mult: multiplicative }, setView] = useResultsViewState();
  const [tText, setTText] = useState("");
  const tCritical = Number(tText) > 0 ? Number(tText) : null;
  const { factorial, error } = useGetFactorialQuery(
    experimentId,
    source,
    requestType,
    multiplicative,
    cut,
    true,
    tCritical,
  );
  // The same selection for the server's factorial figures.
  const params = useMemo(
    () => ({
      source,
      request_type: requestType,
      metric: "throughput_per_s",
      multiplicative,
      t_critical: tCritical,
      ...windowQuery(cut),
    }),
    [source, requestType, multiplicative, tCritical, cut],
  );
  if (error) {
    return (
      <Unavailable what="The factorial analysis" error={error} testId="factorial-unavailable" />
    );
  }
  if (!factorial) return null;
  return (
    <div className="card" data-testid="factorial">
      <div className="section-header">
        <h3>
          2<sup>{factorial.factors.length}</sup>·{factorial.replications} factorial design
          (throughput)
        </h3>
        <TableExportButtons
          table={{ experimentId, name: "factorial", params }}
          filename={`experiment-${experimentId}-factorial-${source}-${requestType}`}
          testId="factorial-table-exports"
        />
        <label className="hint">
          <input
            type="checkbox"
            name="mult"
            checked={multiplicative}
            onChange={(e) => setView({ mult: e.target.checked })}
          />{" "}
          multiplicative model (log y)
        </label>
        <label className="hint">
          critical t{" "}
          <input
            type="number"
            name="t-critical"
            min={0}
            step="any"
            style={{ width: 90 }}
            placeholder={factorial.t_critical ? factorial.t_critical.toFixed(4) : "exact"}
            value={tText}
            onChange={(e) => setTText(e.target.value)}
          />{" "}
          {factorial.t_given ? "(as given)" : "(exact quantile)"}
        </label>
      </div>
      <div className="figures">
        <FactorialEffectsTable factorial={factorial} />
        <ServerPlot
          title="Allocation of variation"
          figure={{ experimentId, name: "allocation-of-variation", params }}
          filename={`experiment-${experimentId}-factorial-variation`}
          height={300}
        />
      </div>
      <FactorialDiagnostics
        experimentId={experimentId}
        factorial={factorial}
        params={params}
        filename={`experiment-${experimentId}`}
      />
    </div>
  );
}
