// The two-level designs beside each other: the full grid and the smallest fraction of each
// resolution, with runs, duration and the smallest effect each detects at alpha and power.
import type { PowerPublic } from "@/api";
import { formatDuration, formatNumber } from "@/lib/format";

/** Props of DesignOptions. */
export interface DesignOptionsProps {
  power: PowerPublic;
}

export function DesignOptions({ power }: DesignOptionsProps) {
  const noise = power.noise;
  return (
    <div data-testid="design-options">
      <h3>Designs and the smallest effect each detects</h3>
      <p className="hint" data-testid="noise-source">
        {noise
          ? `Noise: std ${formatNumber(noise.std, 2)}${
              noise.experiment
                ? ` of ${noise.metric} measured on ${noise.experiment} (${noise.degrees_of_freedom} degrees of freedom)`
                : " as typed"
            }; alpha ${power.alpha}, power ${power.power}.`
          : "Give the noise of a pilot or an earlier experiment to see the effects each design detects."}
      </p>
      <table className="table compact">
        <thead>
          <tr>
            <th>Design</th>
            <th>Runs</th>
            <th>Duration</th>
            <th>Smallest effect</th>
          </tr>
        </thead>
        <tbody>
          {power.designs.map((d) => (
            <tr key={d.design} className={d.chosen ? "chosen" : undefined}>
              <td>
                {d.design}
                {d.chosen && <strong> (this design)</strong>}
              </td>
              <td>{d.runs}</td>
              <td>{formatDuration(d.estimated_seconds)}</td>
              <td data-testid={`min-effect-${d.design}`}>
                {d.min_effect === null ? "–" : formatNumber(d.min_effect, 1)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="hint">
        Effect: the difference between a factor's high- and low-level means (twice Jain's q).
      </p>
    </div>
  );
}
