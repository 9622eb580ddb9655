// The machines a run used: every server, middleware and client instance with its host and
// port, then the other recorded facts (load generator, clock offsets).
import { formatValue } from "@/lib/format";

/** Props of RunHosts. */
export interface RunHostsProps {
  hosts: Record<string, unknown>;
}

type Instance = Record<string, unknown>;

function isInstanceList(value: unknown): value is Instance[] {
  return Array.isArray(value) && value.every((v) => typeof v === "object" && v !== null);
}

export function RunHosts({ hosts }: RunHostsProps) {
  const entries = Object.entries(hosts);
  if (entries.length === 0) {
    return <p className="hint">Not placed yet: hosts are chosen when the run starts.</p>;
  }
  const roles = entries.filter((e): e is [string, Instance[]] => isInstanceList(e[1]));
  // The network has its own section on the run page.
  const facts = entries.filter(([k, v]) => !isInstanceList(v) && k !== "network");
  return (
    <>
      <table className="table compact" data-testid="run-hosts">
        <thead>
          <tr>
            <th>role</th>
            <th>instance</th>
            <th>host</th>
            <th>address</th>
            <th>port / target</th>
          </tr>
        </thead>
        <tbody>
          {roles.flatMap(([role, list]) =>
            list.map((i) => (
              <tr key={`${role}-${String(i.name)}`}>
                <td>{role}</td>
                <td>{String(i.name ?? "")}</td>
                <td>{String(i.host ?? "")}</td>
                <td>{String(i.address ?? "")}</td>
                <td>{String(i.port ?? i.target ?? "")}</td>
              </tr>
            )),
          )}
        </tbody>
      </table>
      <dl className="stats inline">
        {facts.map(([k, v]) => [
          <dt key={`${k}-t`}>{k.replaceAll("_", " ")}</dt>,
          <dd key={`${k}-d`}>
            {typeof v === "object" && v !== null
              ? Object.entries(v)
                  .map(([a, b]) => `${a}: ${formatValue(b)}`)
                  .join(", ")
              : formatValue(v)}
          </dd>,
        ])}
      </dl>
    </>
  );
}
