// How the comparison is shown: source, request type, metric, x axis, grouping and band.
import type { MetricPublic } from "@/api";
import { FactorSelect, ResultSelectors, WindowPicker } from "@/features/results";
import { displayUnit } from "@/lib/labels";
import {
  BANDS,
  type CompareState,
  GROUP_BY_EXPERIMENT,
  PROCESS_ROLE_LABELS,
  PROCESS_ROLES,
} from "../utils/compareState";

const BAND_LABELS: Record<CompareState["band"], string> = {
  std: "standard deviation",
  se: "standard error",
  ci: "95% t confidence interval",
};

/** Props of CompareToolbar. */
export interface CompareToolbarProps {
  state: CompareState;
  /** The metrics the chosen side reports (the served metric table), and the one shown. */
  metrics: MetricPublic[];
  metric: string;
  x: string;
  groupable: string[];
  /** Human label of a parameter (the served schema's). */
  labelOf: (name: string) => string;
  onChange: (patch: Partial<CompareState>) => void;
}

export function CompareToolbar(props: CompareToolbarProps) {
  const { state, metrics, metric, x, groupable, labelOf, onChange } = props;
  return (
    <div className="toolbar" data-testid="compare-toolbar">
      <ResultSelectors
        source={state.source}
        monitor
        requestType={state.requestType}
        onSource={(source) => onChange({ source })}
        onRequestType={(requestType) => onChange({ requestType })}
      />
      {state.source === "process" && (
        <label>
          Process role
          <select
            value={state.role ?? ""}
            onChange={(e) => onChange({ role: (e.target.value || null) as CompareState["role"] })}
          >
            <option value="">all (summed)</option>
            {PROCESS_ROLES.map((r) => (
              <option key={r} value={r}>
                {PROCESS_ROLE_LABELS[r]} (summed)
              </option>
            ))}
          </select>
        </label>
      )}
      <label>
        Metric
        <select value={metric} onChange={(e) => onChange({ metric: e.target.value })}>
          {metrics.map((m) => (
            <option key={m.name} value={m.name}>
              {m.label} ({displayUnit(m.unit)})
            </option>
          ))}
        </select>
      </label>
      {groupable.length > 0 && (
        <FactorSelect
          label="x axis"
          factors={groupable}
          value={x}
          onChange={(v) => onChange({ x: v })}
          labelOf={labelOf}
        />
      )}
      <FactorSelect
        label="Group by"
        factors={[GROUP_BY_EXPERIMENT, ...groupable]}
        value={state.group}
        onChange={(group) => onChange({ group })}
        labelOf={(g) => (g === GROUP_BY_EXPERIMENT ? "experiment" : labelOf(g))}
      />
      <label>
        Band
        <select
          value={state.band}
          onChange={(e) => onChange({ band: e.target.value as CompareState["band"] })}
        >
          {BANDS.map((b) => (
            <option key={b} value={b}>
              {BAND_LABELS[b]}
            </option>
          ))}
        </select>
      </label>
      <WindowPicker
        value={state.window ?? undefined}
        errors={{}}
        onChange={(w) => onChange({ window: w ?? null })}
      />
    </div>
  );
}
