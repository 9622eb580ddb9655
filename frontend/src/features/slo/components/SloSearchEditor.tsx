// The latency-SLO search's fields on the design page: the objective (statistic, target,
// confidence) and how the search moves (start rate, bounds, resolution, repeats, probe budget).
// An empty field takes the server's default, shown as its placeholder from the preview.
import { FieldError } from "@/components/common/FieldError";
import { SLO_NUMBER_KEYS, type SloForm, type SloNumberKey } from "../utils/sloForm";

/** Props of SloSearchEditor. */
export interface SloSearchEditorProps {
  value: SloForm;
  /** Field errors keyed by their path ("slo_search.target_us"). */
  errors: Record<string, string>;
  onChange: (value: SloForm) => void;
  /** The search as it will run, from the last preview (defaults filled in). */
  settings: Record<string, number | string> | undefined;
}

const LABELS: Record<SloNumberKey, string> = {
  percentile: "Percentile",
  confidence: "Confidence",
  start_rate: "Start rate (requests/s per connection)",
  max_rate: "Highest rate (requests/s per connection)",
  resolution_pct: "Resolution (%)",
  max_repeats: "Repeats of an unsure rate",
  confirm_repeats: "Runs confirming the answer",
  max_probes: "Probe budget (runs)",
  min_delivered: "Load carried, at least (fraction)",
};

export function SloSearchEditor({ value, errors, onChange, settings }: SloSearchEditorProps) {
  const set = (patch: Partial<SloForm>) => onChange({ ...value, ...patch });
  const error = (key: string) => errors[`slo_search.${key}`];
  const shown = (key: string) => {
    const v = settings?.[key];
    return v === undefined ? "" : String(v);
  };
  return (
    <fieldset data-testid="slo-search-editor">
      <legend>Latency-SLO search</legend>
      <p className="hint">
        The search finds the highest offered load per connection (open loop) at which the objective
        holds at its confidence. It doubles the rate from the start rate until a probe misses, then
        bisects between the last hit and the miss; every other parameter is fixed below.
      </p>
      <div className="grid-4">
        <label>
          Statistic
          <select
            name="slo-statistic"
            value={value.statistic}
            onChange={(e) => set({ statistic: e.target.value as SloForm["statistic"] })}
          >
            <option value="percentile">percentile</option>
            <option value="mean">mean</option>
          </select>
        </label>
        <div>
          <label>
            Target (ms)
            <input
              type="number"
              name="slo-target_ms"
              step="any"
              value={value.target_ms}
              onChange={(e) => set({ target_ms: e.target.value })}
              aria-invalid={Boolean(error("target_us"))}
            />
          </label>
          <FieldError message={error("target_us")} testId="error-slo-target_us" />
        </div>
        {SLO_NUMBER_KEYS.filter((k) => k !== "percentile" || value.statistic === "percentile").map(
          (k) => (
            <div key={k}>
              <label>
                {LABELS[k]}
                <input
                  type="number"
                  name={`slo-${k}`}
                  step="any"
                  placeholder={shown(k)}
                  value={value[k]}
                  onChange={(e) => set({ [k]: e.target.value })}
                  aria-invalid={Boolean(error(k))}
                />
              </label>
              <FieldError message={error(k)} testId={`error-slo-${k}`} />
            </div>
          ),
        )}
      </div>
      <FieldError message={errors.slo_search} testId="error-slo" />
    </fieldset>
  );
}
