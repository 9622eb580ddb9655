// Machines per configuration beside the results: the hosts' whole CPU (user, system, iowait,
// steal) against their cores and mcscope's processes' share (both: a host can saturate with
// work that is not mcscope's), each role's processes, the traffic, each capped host's link against
// its cap (shaped or sized testbeds only), and the verdict in words.
import { formatNumber, formatValue } from "@/lib/format";
import type { ResultWindow } from "@/lib/queryKeys";
import { useGetMachinesQuery } from "../hooks/useGetMachinesQuery";

/** Props of MachinesTable. */
export interface MachinesTableProps {
  experimentId: number;
  cut: ResultWindow | null;
}

const cores = (pct: number | null | undefined) => (pct == null ? "–" : formatNumber(pct / 100, 2));
const share = (u: number | null | undefined) => (u == null ? "–" : `${formatNumber(100 * u, 0)} %`);

export function MachinesTable({ experimentId, cut }: MachinesTableProps) {
  const { machines, error } = useGetMachinesQuery(experimentId, cut);
  if (error) {
    return (
      <p className="hint" data-testid="machines-unavailable">
        Machines per configuration: {error.message}
      </p>
    );
  }
  if (!machines) return null;
  const roles = [...new Set(machines.data.flatMap((r) => Object.keys(r.process_cpu_pct_by_role)))];
  // Only testbeds whose hosts record a link cap have links to show.
  const hasLinks = machines.data.some((r) => (r.links ?? []).length > 0);
  return (
    <section className="card" data-testid="machines-table">
      <h3>Machines per configuration</h3>
      <p className="hint">
        CPU in cores busy over {cut ? "the re-cut window" : "each run's stable window"}, means over
        repetitions. Hosts count every process on them; mcscope's processes only its own. A host
        busy past {formatNumber(100 * machines.saturated_share, 0)} % of its cores is saturated
        {hasLinks ? ", and so is a link sending past that share of its cap" : ""}.
      </p>
      <table className="table compact">
        <thead>
          <tr>
            <th>configuration</th>
            <th>cores</th>
            <th>hosts busy</th>
            <th>user</th>
            <th>system</th>
            <th>iowait</th>
            <th>steal</th>
            <th>hosts' utilization</th>
            <th>mcscope's processes</th>
            {roles.map((r) => (
              <th key={r}>{r}</th>
            ))}
            <th>network (MB/s)</th>
            {hasLinks && <th>links (sent / cap)</th>}
            <th>in words</th>
          </tr>
        </thead>
        <tbody>
          {machines.data.map((row) => (
            <tr key={row.configuration_id} className={row.saturated ? "warning-row" : undefined}>
              <td>
                {row.index}:{" "}
                {Object.entries(row.values)
                  .map(([k, v]) => `${k} ${formatValue(v)}`)
                  .join(", ")}
              </td>
              <td>{row.host_cpus ?? "–"}</td>
              <td>{cores(row.host_cpu_busy_pct)}</td>
              <td>{cores(row.host_cpu_user_pct)}</td>
              <td>{cores(row.host_cpu_system_pct)}</td>
              <td>{cores(row.host_cpu_iowait_pct)}</td>
              <td>{cores(row.host_cpu_steal_pct)}</td>
              <td>{share(row.host_utilization)}</td>
              <td>
                {cores(row.process_cpu_pct)} ({share(row.process_utilization)})
              </td>
              {roles.map((r) => (
                <td key={r}>{cores(row.process_cpu_pct_by_role[r])}</td>
              ))}
              <td>
                {row.net_bytes_per_s == null ? "–" : formatNumber(row.net_bytes_per_s / 1e6, 3)}
              </td>
              {hasLinks && (
                <td data-testid="machines-links">
                  {(row.links ?? [])
                    .map(
                      (u) =>
                        `${u.role} ${u.host}: ${share(u.utilization)} of ${formatNumber(u.cap_mbit_s, 4)} Mbit/s`,
                    )
                    .join("; ") || "–"}
                </td>
              )}
              <td>{row.summary}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
