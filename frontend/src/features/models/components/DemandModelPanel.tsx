// The model built from measured demands: each CPU's demand by the utilization law (D = CPU
// seconds / requests), the middleware timers beside them, the fit at every measured point, its
// warnings and the bottleneck at the highest load. The measured round trip is a delay station and
// each role's link (iperf3 bandwidth) a station whose capacity is its network bound.
import type { DemandGroupPublic } from "@/api";
import { FitMessages, FitWarning } from "@/components/common/FitWarning";
import { formatNumber } from "@/lib/format";
import { useMetricLabels } from "@/lib/hooks/useMetricLabels";
import { THROUGHPUT_METRIC, withUnit } from "@/lib/labels";

/** Props of DemandModelPanel. */
export interface DemandModelPanelProps {
  group: DemandGroupPublic;
}

const US = 1e6;

function pct(value: number | null | undefined): string {
  return value === null || value === undefined ? "–" : `${formatNumber(value, 1)} %`;
}

export function DemandModelPanel({ group }: DemandModelPanelProps) {
  const metrics = useMetricLabels();
  const { model } = group;
  const last = model.points.length - 1;
  const neck = model.bottleneck;
  return (
    <div data-testid="demand-model">
      <p className="hint">
        Stations are the CPUs the run used: each host is an m-server station (m = its cores), busy
        with the run's own processes; D = CPU seconds / requests completed (utilization law), over
        each run's stable window. Think time Z = {formatNumber(model.think_time_s * US, 1)} µs
        (interactive law).{" "}
        {model.network_delay_s
          ? "The measured client → middleware round trip is a delay station."
          : "No round trip measured: no network delay station."}{" "}
        {model.stations.some((s) => s.name.startsWith("network of"))
          ? "Each role's link is a station: hosts × link bandwidth (its cap when known, else iperf3's) / bytes it sends per request."
          : "No bandwidth measured on the testbed: no link stations."}
      </p>
      {neck && (
        <dl className="stats inline" data-testid="demand-bottleneck">
          <dt>bottleneck at N = {neck.clients}</dt>
          <dd>
            {neck.resource} ({neck.servers} server{neck.servers > 1 ? "s" : ""}), utilization{" "}
            {formatNumber(neck.utilization, 2)}
          </dd>
          {neck.others.slice(0, 3).map(([name, u]) => (
            <span key={name}>
              <dt>{name}</dt>
              <dd>{formatNumber(u, 2)}</dd>
            </span>
          ))}
        </dl>
      )}
      {model.warnings.length > 0 && (
        <ul className="warnings" data-testid="demand-warnings">
          {model.warnings.map((w) => (
            <li key={w} className="warning">
              {w}
            </li>
          ))}
        </ul>
      )}
      <table className="table compact" data-testid="demand-stations">
        <thead>
          <tr>
            <th>Station</th>
            <th className="num">Servers</th>
            <th className="num">D (µs per request)</th>
            <th className="num">Utilization at N = {model.points[last]?.clients}</th>
          </tr>
        </thead>
        <tbody>
          {[...model.stations, ...model.processes].map((s) => (
            <tr key={s.name}>
              <td>
                {s.name}
                {model.processes.includes(s) ? " (part of its host's CPU)" : ""}
              </td>
              <td className="num">{s.servers}</td>
              <td className="num">{formatNumber(s.demand_s * US, 1)}</td>
              <td className="num">{formatNumber(s.utilization_by_point[last] ?? 0, 2)}</td>
            </tr>
          ))}
          {model.network_delay_s ? (
            <tr data-testid="demand-delay">
              <td>network round trip, client → middleware (delay station, measured)</td>
              <td className="num">∞</td>
              <td className="num">{formatNumber(model.network_delay_s * US, 1)}</td>
              <td className="num">–</td>
            </tr>
          ) : null}
          <tr data-testid="demand-timers">
            <td>middleware timers (cross-check: worker time per request)</td>
            <td className="num">–</td>
            <td className="num">
              {model.timer_demand_s === null || model.timer_demand_s === undefined
                ? "–"
                : formatNumber(model.timer_demand_s * US, 1)}
              {model.cpu_demand_s !== null && model.cpu_demand_s !== undefined
                ? ` vs ${formatNumber(model.cpu_demand_s * US, 1)} CPU`
                : ""}
            </td>
            <td className="num">–</td>
          </tr>
        </tbody>
      </table>
      <table className="table compact" data-testid="demand-fit">
        <thead>
          <tr>
            <th className="num">N</th>
            <th className="num">{withUnit("Measured X", metrics.unit(THROUGHPUT_METRIC))}</th>
            <th className="num">Model X</th>
            <th className="num">Error X</th>
            <th className="num">Bound X</th>
            <th className="num">Measured R (µs)</th>
            <th className="num">Model R</th>
            <th className="num">Error R</th>
          </tr>
        </thead>
        <tbody>
          {model.points.map((p) => (
            <tr
              key={p.clients}
              className={p.throughput_fit.verdict === "beyond_bound" ? "warning" : ""}
            >
              <td className="num">{p.clients}</td>
              <td className="num">
                {formatNumber(p.measured_throughput_per_s, 0)}
                <FitWarning fit={p.throughput_fit} />
              </td>
              <td className="num">{formatNumber(p.model_throughput_per_s, 0)}</td>
              <td className="num">{pct(p.throughput_error_pct)}</td>
              <td className="num">{formatNumber(p.bound_throughput_per_s, 0)}</td>
              <td className="num">
                {p.measured_response_time_s === null || p.measured_response_time_s === undefined
                  ? "–"
                  : formatNumber(p.measured_response_time_s * US, 0)}
                <FitWarning fit={p.response_time_fit} />
              </td>
              <td className="num">{formatNumber(p.model_response_time_s * US, 0)}</td>
              <td className="num">{pct(p.response_time_error_pct)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {/* The fit's messages the warnings above do not already hold (off the model, R). */}
      <FitMessages
        fits={model.points
          .flatMap((p) => [p.throughput_fit, p.response_time_fit])
          .filter((f) => !model.warnings.some((w) => f?.message && w.startsWith(f.message)))}
      />
    </div>
  );
}
