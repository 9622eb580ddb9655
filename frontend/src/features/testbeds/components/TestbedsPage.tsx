// Testbeds: the built-in local one and every registered one, with hosts, their pinned SSH host
// keys, the network between their roles (round trips, iperf3 bandwidth), and the tools (and
// versions) their newest runs found. Azure testbeds: New Azure testbed (plan, then create), each
// lab's progress while it is made, then its testbed's card with the expiry countdown, the cost so
// far and Stop/Start/Delete. Rehearsals (an Azure plan built as namespace hosts here): each
// one's build, then its testbed's card with the hosts' link caps and what is and is not like
// the cloud.
import { useEffect, useState } from "react";
import { Link, useLocation } from "react-router";
import type { AzureLabPublic, RehearsalPublic, TestbedPublic, TestbedToolPublic } from "@/api";
import { CostSummary } from "@/components/common/CostSummary";
import { handleError } from "@/components/common/handleError";
import { PendingBlock } from "@/components/common/PendingBlock";
import { formatMoney } from "@/lib/cost";
import { useGetAzureLabDefaultsQuery, useGetAzureLabsQuery } from "../hooks/useAzureLabs";
import { useGetTestbedsQuery, useGetTestbedToolsQuery } from "../hooks/useGetTestbedsQuery";
import { useMeasureNetworkMutation } from "../hooks/useMeasureNetworkMutation";
import { useGetRehearsalsQuery } from "../hooks/useRehearsals";
import { AzureLabPanel } from "./AzureLabPanel";
import { AzureLabStates } from "./AzureLabStates";
import { HostKeyCell } from "./HostKeyCell";
import { NetworkTable } from "./NetworkTable";
import { NewAzureTestbed } from "./NewAzureTestbed";
import { RehearsalPanel } from "./RehearsalPanel";

export function TestbedsPage() {
  const { testbeds, isLoading, error } = useGetTestbedsQuery();
  const { tools } = useGetTestbedToolsQuery();
  const { labs, error: labsError } = useGetAzureLabsQuery();
  const { defaults } = useGetAzureLabDefaultsQuery();
  const { rehearsals, error: rehearsalsError } = useGetRehearsalsQuery();
  const [creating, setCreating] = useState(false);
  useEffect(() => {
    if (error) handleError(error);
  }, [error]);
  useEffect(() => {
    if (labsError) handleError(labsError);
  }, [labsError]);
  useEffect(() => {
    if (rehearsalsError) handleError(rehearsalsError);
  }, [rehearsalsError]);
  // A lab's newest row per testbed; labs not (yet) registered get a card of their own.
  const labOf = (id: number) => labs?.data.find((l) => l.testbed_id === id);
  const unregistered = (labs?.data ?? []).filter((l) => l.testbed_id === null);
  const rehearsalOf = (id: number) => rehearsals?.data.find((r) => r.testbed_id === id);
  // Rehearsals being built (or whose build failed) have no testbed yet: a card of their own.
  const unbuilt = (rehearsals?.data ?? []).filter(
    (r) => r.testbed_id === null && r.status !== "deleted",
  );
  const toolsOf = (id: number | null) => (tools?.data ?? []).filter((t) => t.testbed_id === id);
  // Links to one testbed's card (/testbeds#testbed-3) scroll to it once the cards are drawn.
  const { hash } = useLocation();
  useEffect(() => {
    if (hash && testbeds) document.getElementById(hash.slice(1))?.scrollIntoView();
  }, [hash, testbeds]);
  if (isLoading) return <PendingBlock label="Loading testbeds" />;
  return (
    <section data-testid="testbeds-page">
      <div className="page-header">
        <h1>Testbeds</h1>
        <Link to="/prices">VM prices</Link>
        {defaults && (
          <button
            type="button"
            className={creating ? undefined : "primary"}
            onClick={() => setCreating((c) => !c)}
          >
            {creating ? "Close" : "New Azure testbed"}
          </button>
        )}
      </div>
      {creating && defaults && (
        <NewAzureTestbed defaults={defaults} onCreated={() => setCreating(false)} />
      )}
      {(labs?.data.length ?? 0) > 0 && <AzureLabStates />}
      {unregistered.map((lab) => (
        <section className="card" key={`lab-${lab.id}`} data-testid={`azure-lab-card-${lab.id}`}>
          <h2>
            {lab.name} <span className="hint">(azure, not registered)</span>
          </h2>
          <AzureLabPanel lab={lab} />
        </section>
      ))}
      {unbuilt.map((r) => (
        <section className="card" key={`rehearsal-${r.id}`} data-testid={`rehearsal-card-${r.id}`}>
          <h2>
            {r.name} <span className="hint">(rehearsal, not registered)</span>
          </h2>
          <RehearsalPanel rehearsal={r} />
        </section>
      ))}
      <section className="card" data-testid="testbed-local">
        <h2>local</h2>
        <p className="hint">
          This machine, driven over SSH to 127.0.0.1 like any remote host. Experiments without a
          testbed run here.
        </p>
        <ToolsTable tools={toolsOf(null)} />
      </section>
      {testbeds?.data.map((tb) => (
        <section
          className="card"
          key={tb.id}
          id={`testbed-${tb.id}`}
          data-testid={`testbed-${tb.id}`}
        >
          <h2>
            {tb.name} <span className="hint">({tb.kind})</span>
          </h2>
          {tb.description && <p className="hint">{tb.description}</p>}
          {labOf(tb.id) && <AzureLabPanel lab={labOf(tb.id) as AzureLabPublic} />}
          {rehearsalOf(tb.id) && (
            <RehearsalPanel rehearsal={rehearsalOf(tb.id) as RehearsalPublic} />
          )}
          {tb.cost && (
            <>
              <CostSummary cost={tb.cost.accrued} label="Cost so far" testId={`cost-${tb.id}`} />
              <p className="hint" data-testid={`budget-${tb.id}`}>
                {tb.cost.budget === null
                  ? "No budget set."
                  : `Budget ${formatMoney(tb.cost.budget, tb.cost.accrued.currency)}, remaining ${formatMoney(tb.cost.remaining, tb.cost.accrued.currency)}.`}
              </p>
            </>
          )}
          {tb.hosts.length === 0 ? (
            <p className="hint">No hosts registered.</p>
          ) : (
            <table className="table compact" data-testid={`testbed-hosts-${tb.id}`}>
              <thead>
                <tr>
                  <th>host</th>
                  <th>role</th>
                  <th>address</th>
                  <th>SSH</th>
                  <th>SSH host key</th>
                </tr>
              </thead>
              <tbody>
                {tb.hosts.map((h) => (
                  <tr key={h.id}>
                    <td>{h.name}</td>
                    <td>
                      {h.role}
                      {h.size && <span className="hint"> {h.size}</span>}
                    </td>
                    <td>{h.address}</td>
                    <td>
                      {h.ssh_user}@{h.address}:{h.ssh_port}
                    </td>
                    <td>
                      <HostKeyCell testbedId={tb.id} host={h} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          <TestbedNetwork testbed={tb} />
          <ToolsTable tools={toolsOf(tb.id)} />
        </section>
      ))}
    </section>
  );
}

function TestbedNetwork({ testbed }: { testbed: TestbedPublic }) {
  const measure = useMeasureNetworkMutation(testbed.id);
  const busy = measure.isPending || testbed.network?.status === "measuring";
  const run = (bandwidth: boolean) => measure.mutate(bandwidth, { onError: handleError });
  return (
    <>
      <h3>Network between roles</h3>
      <NetworkTable
        network={testbed.network}
        emptyHint="Not measured yet: round trips are measured after registration, or now."
        testId={`testbed-network-${testbed.id}`}
      />
      <div className="actions">
        <button type="button" disabled={busy} onClick={() => run(false)}>
          Measure round trips
        </button>
        <button type="button" disabled={busy} onClick={() => run(true)}>
          Measure bandwidth (iperf3)
        </button>
      </div>
    </>
  );
}

function ToolsTable({ tools }: { tools: TestbedToolPublic[] }) {
  if (tools.length === 0) {
    return (
      <p className="hint">
        No tools found yet: each run checks the tools on its hosts before it starts.
      </p>
    );
  }
  return (
    <table className="table compact" data-testid="testbed-tools">
      <thead>
        <tr>
          <th>tool</th>
          <th>version</th>
          <th>found by</th>
        </tr>
      </thead>
      <tbody>
        {tools.map((t) => (
          <tr key={t.tool}>
            <td>{t.tool}</td>
            <td>{t.version}</td>
            <td>
              <Link to={`/runs/${t.run_id}`}>run {t.run_id}</Link>
              {t.seen_at ? `, ${new Date(t.seen_at).toLocaleString()}` : ""}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
