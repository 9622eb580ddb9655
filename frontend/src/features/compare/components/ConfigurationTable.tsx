// The configurations of the compared experiments (after brushing), paged; ticking two or more
// compares those configurations with each other against the chosen base configuration.
import { useMemo, useState } from "react";
import type { ConfigurationRowPublic, ConfigurationTablePublic } from "@/api";
import { Pager } from "@/components/common/Pager";
import { formatNumber, formatValue } from "@/lib/format";
import type { MetricLabels, ParameterLabels } from "@/lib/labels";

const PAGE = 20;

/** Props of ConfigurationTable. */
export interface ConfigurationTableProps {
  table: ConfigurationTablePublic;
  rows: ConfigurationRowPublic[];
  names: Map<number, string>;
  chosen: number[];
  base: number | null;
  onChosen: (ids: number[], base: number | null) => void;
  labels: Pick<ParameterLabels, "label">;
  metricLabels: Pick<MetricLabels, "heading">;
}

export function ConfigurationTable({
  table,
  rows,
  names,
  chosen,
  base,
  onChosen,
  labels,
  metricLabels,
}: ConfigurationTableProps) {
  const [skip, setSkip] = useState(0);
  const page = useMemo(() => rows.slice(skip, skip + PAGE), [rows, skip]);
  if (skip > 0 && skip >= rows.length) setSkip(0);
  const toggle = (id: number) => {
    const next = chosen.includes(id) ? chosen.filter((c) => c !== id) : [...chosen, id];
    onChosen(next, next.includes(base ?? -1) ? base : (next[0] ?? null));
  };
  return (
    <div className="card" data-testid="configuration-table">
      <div className="section-header">
        <h3>Configurations</h3>
        {chosen.length > 0 && (
          <button type="button" onClick={() => onChosen([], null)}>
            Clear picked ({chosen.length})
          </button>
        )}
      </div>
      <p className="hint">
        Pick two or more configurations (from any experiment) to compare them against a base
        configuration instead of experiment against experiment.
      </p>
      <div className="scroll">
        <table className="table compact">
          <thead>
            <tr>
              <th>compare</th>
              <th>base</th>
              <th>experiment</th>
              {table.parameters.map((p) => (
                <th key={p} title={p}>
                  {labels.label(p)}
                </th>
              ))}
              <th className="num">reps</th>
              {table.metrics.map((m) => (
                <th key={m} className="num">
                  {metricLabels.heading(m)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {page.map((r) => (
              <tr key={r.configuration_id} data-testid="configuration-row">
                <td>
                  <input
                    type="checkbox"
                    aria-label={`compare configuration ${r.configuration_id}`}
                    checked={chosen.includes(r.configuration_id)}
                    onChange={() => toggle(r.configuration_id)}
                  />
                </td>
                <td>
                  <input
                    type="radio"
                    name="base-configuration"
                    aria-label={`base configuration ${r.configuration_id}`}
                    disabled={!chosen.includes(r.configuration_id)}
                    checked={base === r.configuration_id}
                    onChange={() => onChosen(chosen, r.configuration_id)}
                  />
                </td>
                <td>{names.get(r.experiment_id) ?? `#${r.experiment_id}`}</td>
                {table.parameters.map((p) => (
                  <td key={p}>{formatValue(r.values[p])}</td>
                ))}
                <td className="num">{r.repetitions}</td>
                {table.metrics.map((m) => (
                  <td key={m} className="num">
                    {formatNumber(r.metrics[m])}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <Pager skip={skip} limit={PAGE} count={rows.length} onChange={setSkip} />
    </div>
  );
}
