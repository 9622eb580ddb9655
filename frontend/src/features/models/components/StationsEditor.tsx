// Rows of the closed network: name, kind (delay / queue / m-server), service time, visits, servers.
import type { StationKind } from "@/api";
import { FieldError } from "@/components/common/FieldError";
import { TIME_UNIT } from "@/lib/labels";
import type { StationRow } from "../utils/mva";

/** Props of StationsEditor. */
export interface StationsEditorProps {
  stations: StationRow[];
  errors: Record<string, string>;
  onChange: (stations: StationRow[]) => void;
}

const KINDS: { value: StationKind; label: string }[] = [
  { value: "delay", label: "delay (infinite servers)" },
  { value: "queue", label: "queue (1 server)" },
  { value: "multi", label: "m-server station" },
];

export function StationsEditor({ stations, errors, onChange }: StationsEditorProps) {
  const set = (i: number, patch: Partial<StationRow>) =>
    onChange(stations.map((s, j) => (j === i ? { ...s, ...patch } : s)));
  const num = (v: string) => (v === "" ? Number.NaN : Number(v));
  return (
    <table className="table compact" data-testid="stations-editor">
      <thead>
        <tr>
          <th>station</th>
          <th>kind</th>
          <th>service time ({TIME_UNIT})</th>
          <th>visits</th>
          <th>servers</th>
          <th />
        </tr>
      </thead>
      <tbody>
        {stations.map((s, i) => {
          const err = (f: string) => errors[`stations.${i}.${f}`];
          return (
            // biome-ignore lint/suspicious/noArrayIndexKey: rows are edited in place by position
            <tr key={i}>
              <td>
                <input
                  aria-label={`Name of station ${i}`}
                  value={s.name}
                  onChange={(e) => set(i, { name: e.target.value })}
                />
                <FieldError message={err("name")} />
              </td>
              <td>
                <select
                  aria-label={`Kind of station ${i}`}
                  value={s.kind}
                  onChange={(e) => set(i, { kind: e.target.value as StationKind })}
                >
                  {KINDS.map((k) => (
                    <option key={k.value} value={k.value}>
                      {k.label}
                    </option>
                  ))}
                </select>
              </td>
              <td>
                <input
                  type="number"
                  step="any"
                  name={`station-${i}-service`}
                  aria-label={`Service time of station ${i}`}
                  aria-invalid={Boolean(err("service_time_s"))}
                  value={Number.isNaN(s.service_us) ? "" : s.service_us}
                  onChange={(e) => set(i, { service_us: num(e.target.value) })}
                />
                <FieldError message={err("service_time_s")} testId={`error-station-${i}-service`} />
              </td>
              <td>
                <input
                  type="number"
                  step="any"
                  aria-label={`Visits of station ${i}`}
                  value={Number.isNaN(s.visits) ? "" : s.visits}
                  onChange={(e) => set(i, { visits: num(e.target.value) })}
                />
                <FieldError message={err("visits")} />
              </td>
              <td>
                <input
                  type="number"
                  aria-label={`Servers of station ${i}`}
                  disabled={s.kind !== "multi"}
                  value={s.kind === "multi" ? s.servers : 1}
                  onChange={(e) => set(i, { servers: num(e.target.value) })}
                />
                <FieldError message={err("servers")} />
              </td>
              <td>
                <button
                  type="button"
                  className="link"
                  onClick={() => onChange(stations.filter((_, j) => j !== i))}
                >
                  Remove
                </button>
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
