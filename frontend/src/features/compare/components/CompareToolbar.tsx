// How the comparison is shown: source, request type, metric, x axis, grouping and band.
import { FactorSelect } from "@/features/results/components/FactorSelect";
import { ResultSelectors } from "@/features/results/components/ResultSelectors";
import { WindowPicker } from "@/features/results/components/WindowPicker";
import { BANDS, type CompareState, GROUP_BY_EXPERIMENT, METRICS } from "../utils/compareState";

export const METRIC_LABELS: Record<CompareState["metric"], string> = {
  throughput_per_s: "throughput",
  response_time_us: "response time",
};

const BAND_LABELS: Record<CompareState["band"], string> = {
  std: "standard deviation",
  se: "standard error",
  ci: "95% t confidence interval",
};

/** Props of CompareToolbar. */
export interface CompareToolbarProps {
  state: CompareState;
  x: string;
  groupable: string[];
  onChange: (patch: Partial<CompareState>) => void;
}

export function CompareToolbar({ state, x, groupable, onChange }: CompareToolbarProps) {
  return (
    <div className="toolbar" data-testid="compare-toolbar">
      <ResultSelectors
        source={state.source}
        requestType={state.requestType}
        onSource={(source) => onChange({ source })}
        onRequestType={(requestType) => onChange({ requestType })}
      />
      <label>
        Metric
        <select
          value={state.metric}
          onChange={(e) => onChange({ metric: e.target.value as CompareState["metric"] })}
        >
          {METRICS.map((m) => (
            <option key={m} value={m}>
              {METRIC_LABELS[m]}
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
        />
      )}
      <FactorSelect
        label="Group by"
        factors={[GROUP_BY_EXPERIMENT, ...groupable]}
        value={state.group}
        onChange={(group) => onChange({ group })}
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
