// The noise, alpha and power the preview's detectable effects assume: the std measured on an
// earlier experiment (a pilot), or one typed in.
import { FieldError } from "@/components/common/FieldError";
import { useGetExperimentsQuery } from "@/lib/hooks/useGetExperimentsQuery";
import type { PowerForm } from "../utils/designForm";

/** Props of PowerSettings. */
export interface PowerSettingsProps {
  value: PowerForm;
  errors: Record<string, string>;
  onChange: (value: PowerForm) => void;
}

const EXPERIMENTS = { skip: 0, limit: 200 };

export function PowerSettings({ value, errors, onChange }: PowerSettingsProps) {
  const { experiments } = useGetExperimentsQuery(EXPERIMENTS);
  const set = (patch: Partial<PowerForm>) => onChange({ ...value, ...patch });
  return (
    <div className="power-settings" data-testid="power-settings">
      <label>
        Noise measured on
        <select
          name="noise-experiment"
          value={value.noiseExperimentId ?? ""}
          onChange={(e) =>
            set({ noiseExperimentId: e.target.value ? Number(e.target.value) : null })
          }
        >
          <option value="">(type a std instead)</option>
          {(experiments?.data ?? []).map((e) => (
            <option key={e.id} value={e.id}>
              {e.name}
            </option>
          ))}
        </select>
      </label>
      <FieldError message={errors.noise_experiment_id} testId="error-noise-experiment" />
      {value.noiseExperimentId === null && (
        <label>
          Std of one run's throughput (ops/s)
          <input
            name="noise-std"
            type="number"
            value={value.noiseStd}
            onChange={(e) => set({ noiseStd: e.target.value })}
          />
        </label>
      )}
      <FieldError message={errors.noise_std} testId="error-noise-std" />
      <div className="grid-2">
        <label>
          Alpha
          <input
            name="alpha"
            type="number"
            step={0.01}
            value={value.alpha}
            onChange={(e) => set({ alpha: Number(e.target.value) })}
          />
        </label>
        <label>
          Power
          <input
            name="power"
            type="number"
            step={0.05}
            value={value.power}
            onChange={(e) => set({ power: Number(e.target.value) })}
          />
        </label>
      </div>
      <FieldError message={errors.alpha ?? errors.power} testId="error-power" />
    </div>
  );
}
