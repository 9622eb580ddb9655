// The network between roles as measured (testbed or run): TCP connect round trips of each
// path client -> middleware -> server and, when measured, each role host's iperf3 upload.
import type { NetworkPublic } from "@/api";
import { formatMbit, formatRtt } from "../utils/network";

/** Props of NetworkTable. */
export interface NetworkTableProps {
  /** The stored measurement; null or undefined: never measured. */
  network: NetworkPublic | null | undefined;
  /** What to say when nothing was measured. */
  emptyHint: string;
  testId: string;
}

export function NetworkTable({ network, emptyHint, testId }: NetworkTableProps) {
  const paths = network?.paths ?? [];
  const bandwidth = network?.bandwidth ?? [];
  if (!network || (paths.length === 0 && network.status !== "failed")) {
    return (
      <p className="hint" data-testid={testId}>
        {network?.status === "measuring" ? "Measuring the network…" : emptyHint}
      </p>
    );
  }
  return (
    <div data-testid={testId}>
      <dl className="stats inline">
        <dt>client → middleware RTT</dt>
        <dd data-testid={`${testId}-client-rtt`}>{formatRtt(network.client_middleware_rtt_us)}</dd>
        <dt>middleware → server RTT</dt>
        <dd>{formatRtt(network.middleware_server_rtt_us)}</dd>
        {network.measured_at && (
          <>
            <dt>measured</dt>
            <dd>{new Date(network.measured_at).toLocaleString()}</dd>
          </>
        )}
      </dl>
      {network.status === "failed" && (
        <p className="hint" role="alert">
          The last measurement failed: {network.error}
        </p>
      )}
      {paths.length > 0 && (
        <table className="table compact">
          <thead>
            <tr>
              <th>from</th>
              <th>to</th>
              <th>port</th>
              <th>round trip (median)</th>
              <th>samples</th>
            </tr>
          </thead>
          <tbody>
            {paths.map((p) => (
              <tr key={`${p.from_host}-${p.address}-${p.port}`}>
                <td>
                  {p.from_role} {p.from_host}
                </td>
                <td>
                  {p.to_role} {p.to_host}
                </td>
                <td>{p.port}</td>
                <td>{p.rtt_us === null ? (p.error ?? "no answer") : formatRtt(p.rtt_us)}</td>
                <td className="hint">{p.samples_us.map((s) => (s / 1000).toFixed(2)).join(" ")}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <p className="hint">
        Round trips are TCP connects (one SYN / SYN-ACK exchange), in ms; the model's network delay
        is half the client → middleware round trip.
      </p>
      {bandwidth.length > 0 && (
        <table className="table compact" data-testid={`${testId}-bandwidth`}>
          <thead>
            <tr>
              <th>role</th>
              <th>from</th>
              <th>to</th>
              <th>upload (iperf3)</th>
            </tr>
          </thead>
          <tbody>
            {bandwidth.map((b) => (
              <tr key={`${b.from_host}-${b.to_host}`}>
                <td>{b.role}</td>
                <td>{b.from_host}</td>
                <td>{b.to_host}</td>
                <td>{formatMbit(b.mbit_s)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
