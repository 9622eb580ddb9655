// The network's inputs: the value estimated from the data, its source, and a what-if field.
import type { EstimatePublic, SystemConfigIn } from "@/api";
import { formatNumber } from "@/lib/format";
import type { WhatIfEdits } from "../urlState";
import { INPUTS } from "../utils/fit";

/** Props of ModelInputsTable. */
export interface ModelInputsTableProps {
  system: SystemConfigIn;
  estimates: EstimatePublic[];
  edits: WhatIfEdits;
  onEdit: (key: keyof WhatIfEdits, value: number | null) => void;
}

export function ModelInputsTable({ system, estimates, edits, onEdit }: ModelInputsTableProps) {
  const source = (field: string) => estimates.find((e) => e.parameter === field)?.source ?? "";
  return (
    <table className="table compact" data-testid="model-inputs">
      <thead>
        <tr>
          <th>input</th>
          <th className="num">from the data</th>
          <th>what-if</th>
          <th>source</th>
        </tr>
      </thead>
      <tbody>
        {INPUTS.map((spec) => {
          const estimated = Number(system[spec.field]) * spec.scale;
          const edited = edits[spec.key];
          return (
            <tr key={spec.key}>
              <td>
                {spec.label}
                {spec.unit && <span className="hint"> ({spec.unit})</span>}
              </td>
              <td className="num">{formatNumber(estimated, spec.integer ? 0 : 4)}</td>
              <td>
                <input
                  type="number"
                  name={`whatif-${spec.key}`}
                  aria-label={`what-if ${spec.label}`}
                  step={spec.integer ? 1 : "any"}
                  min={spec.integer ? 1 : 0}
                  placeholder={formatNumber(estimated, spec.integer ? 0 : 4)}
                  value={edited ?? ""}
                  onChange={(e) =>
                    onEdit(spec.key, e.target.value === "" ? null : Number(e.target.value))
                  }
                />
              </td>
              <td className="hint">{source(spec.field)}</td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
