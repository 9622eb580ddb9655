// 2^k r factorial design over the experiment's two-level factors: effects with CIs, variation.
import type { Config } from "plotly.js";
import { useMemo, useState } from "react";
import type { RequestType } from "@/api";
import { LazyPlot } from "@/components/common/LazyPlot";
import { formatNumber } from "@/features/experiments/utils/format";
import type { ResultSource } from "@/lib/queryKeys";
import { useGetFactorialQuery } from "../hooks/useGetFactorialQuery";
import { variationTraces } from "./FactorialPanel.utils";

const PLOT_CONFIG: Partial<Config> = { displaylogo: false, responsive: true };

/** Props of FactorialPanel. */
export interface FactorialPanelProps {
  experimentId: number;
  source: ResultSource;
  requestType: RequestType;
}

export function FactorialPanel({ experimentId, source, requestType }: FactorialPanelProps) {
  const [multiplicative, setMultiplicative] = useState(false);
  const { factorial, error } = useGetFactorialQuery(
    experimentId,
    source,
    requestType,
    multiplicative,
    true,
  );
  const traces = useMemo(() => (factorial ? variationTraces(factorial) : []), [factorial]);
  if (error) return <p className="hint">Factorial analysis not available: {error.message}</p>;
  if (!factorial) return null;
  const level = factorial.confidence ? `${Math.round(factorial.confidence * 100)}%` : "";
  return (
    <div className="card" data-testid="factorial">
      <div className="section-header">
        <h3>
          2<sup>{factorial.factors.length}</sup>·{factorial.replications} factorial design
          (throughput)
        </h3>
        <label className="hint">
          <input
            type="checkbox"
            checked={multiplicative}
            onChange={(e) => setMultiplicative(e.target.checked)}
          />{" "}
          multiplicative model (log y)
        </label>
      </div>
      <div className="figures">
        <table className="table compact">
          <thead>
            <tr>
              <th>effect</th>
              <th className="num">q</th>
              <th className="num">variation (%)</th>
              <th className="num">{level} CI</th>
              <th>significant</th>
            </tr>
          </thead>
          <tbody>
            {factorial.effects.map((e) => (
              <tr key={e.name}>
                <td>{e.name}</td>
                <td className="num">{formatNumber(e.value, 3)}</td>
                <td className="num">
                  {e.factors.length ? formatNumber(e.variation_percent, 2) : ""}
                </td>
                <td className="num">
                  {e.ci_low === null || e.ci_high === null
                    ? "–"
                    : `${formatNumber(e.ci_low, 3)} … ${formatNumber(e.ci_high, 3)}`}
                </td>
                <td>{e.significant === null ? "–" : e.significant ? "yes" : "no"}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <LazyPlot
          data={traces}
          config={PLOT_CONFIG}
          height={300}
          layout={{
            margin: { l: 60, r: 20, t: 10, b: 60 },
            xaxis: { title: { text: "effect" } },
            yaxis: { title: { text: "variation explained (%)" }, range: [0, 100] },
          }}
        />
      </div>
    </div>
  );
}
