// End-to-end: the network between roles as the UI shows it. A testbed with stored round trips
// and iperf3 bandwidths (DOMAIN.md section 7's 201 / 802 / 101 Mbit/s) on the Testbeds page; a
// run's own round trips on its page; and the network bound per role beside the measured
// throughput on the results of an experiment on that testbed.
import { execFileSync } from "node:child_process";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestbedsPublic } from "@/api";
import { api, BASE_URL, launch, screenshot } from "./browser";
import { createSeeded, type SeededExperiment } from "./seed";

let browser: Browser;
let page: Page;
let exp: SeededExperiment;
let runId: number;
let testbedId: number;
const name = `net-${Date.now()}`;

function sql(statement: string): string {
  const db = process.env.E2E_DATABASE ?? "";
  const args = ["-h", "127.0.0.1", "-U", "postgres", "-d", db, "-q", "-t", "-A", "-c", statement];
  return execFileSync("psql", args, { encoding: "utf8" }).trim();
}

function path(from: string, to: string, address: string, samples: number[]) {
  const sorted = [...samples].sort((a, b) => a - b);
  return {
    from_role: from,
    from_host: `${from}-vm`,
    to_role: to,
    to_host: `${to}-vm`,
    address,
    port: 22,
    samples_us: samples,
    rtt_us: sorted[Math.floor(sorted.length / 2)],
    error: null,
  };
}

const TESTBED_NETWORK = {
  status: "measured",
  method: "tcp_connect",
  measured_at: "2026-11-26T15:00:00+00:00",
  paths: [
    path("client", "middleware", "10.0.0.3", [2000, 2010, 1990, 2500, 2005]),
    path("middleware", "server", "10.0.0.4", [600, 610, 590, 620, 605]),
  ],
  bandwidth: [
    { role: "client", from_host: "client-vm", to_host: "middleware-vm", mbit_s: 201 },
    { role: "middleware", from_host: "middleware-vm", to_host: "server-vm", mbit_s: 802 },
    { role: "server", from_host: "server-vm", to_host: "middleware-vm", mbit_s: 101 },
  ],
  bandwidth_measured_at: "2026-11-26T15:01:00+00:00",
};

beforeAll(async () => {
  sql(
    `WITH tb AS (INSERT INTO testbeds (name, kind, description, network)
       VALUES ('${name}', 'remote', 'measured network', '${JSON.stringify(TESTBED_NETWORK)}')
       RETURNING id)
     INSERT INTO hosts (testbed_id, name, role, address, ssh_user, ssh_port, key_path)
     SELECT id, 'client-vm', 'client'::host_role, '10.0.0.2', 'u', 22, '/keys/id' FROM tb
     UNION ALL SELECT id, 'middleware-vm', 'middleware'::host_role, '10.0.0.3', 'u', 22, '/keys/id' FROM tb
     UNION ALL SELECT id, 'server-vm', 'server'::host_role, '10.0.0.4', 'u', 22, '/keys/id' FROM tb`,
  );
  const testbeds = await api<TestbedsPublic>("/testbeds");
  testbedId = testbeds.data.find((t) => t.name === name)?.id ?? 0;
  exp = await createSeeded(`${name}-exp`, [8], [1, 4], { value_size: 4096, servers: 1 });
  // Read in SQL: the API's idle keep-alive connection may have closed during the seeding.
  runId = Number(sql(`SELECT min(id) FROM runs WHERE experiment_id = ${exp.id}`));
  const runNetwork = {
    method: "tcp_connect",
    measured_at: "2026-11-26T15:05:00+00:00",
    paths: [path("client", "middleware", "127.0.0.1", [2412, 2400, 2430, 2380, 2500])],
  };
  sql(
    `UPDATE runs SET hosts = hosts || '{"network": ${JSON.stringify(runNetwork)}}'::jsonb
     WHERE id = ${runId}`,
  );
  // The experiment ran on the measured testbed (the seeding's runs are local).
  sql(`UPDATE experiments SET testbed_id = ${testbedId} WHERE id = ${exp.id}`);
  browser = await launch();
  page = await browser.newPage({ viewport: { width: 1360, height: 900 } });
});

afterAll(async () => {
  await browser?.close();
});

describe("network between roles", () => {
  it("shows a testbed's round trips and bandwidths", async () => {
    await page.goto(`${BASE_URL}/testbeds`);
    const net = page.getByTestId(`testbed-network-${testbedId}`);
    await net.waitFor();
    expect(await page.getByTestId(`testbed-network-${testbedId}-client-rtt`).textContent()).toBe(
      "2.005 ms",
    );
    const bw = await page.getByTestId(`testbed-network-${testbedId}-bandwidth`).textContent();
    expect(bw).toContain("201 Mbit/s");
    expect(bw).toContain("802 Mbit/s");
    expect(bw).toContain("101 Mbit/s");
    const card = page.getByTestId(`testbed-${testbedId}`);
    await expect
      .poll(() => card.getByRole("button", { name: "Measure bandwidth (iperf3)" }).count())
      .toBe(1);
    await net.scrollIntoViewIfNeeded();
    await screenshot(page, "testbed-network");
  });

  it("shows the round trip a run measured on its page", async () => {
    await page.goto(`${BASE_URL}/runs/${runId}`);
    await page.getByTestId("run-network").waitFor();
    expect(await page.getByTestId("run-network-client-rtt").textContent()).toBe("2.412 ms");
    // Not repeated among the other recorded facts of the hosts section.
    expect(await page.getByTestId("run-hosts").locator("xpath=..").textContent()).not.toContain(
      "tcp_connect",
    );
    await page.getByTestId("run-network").scrollIntoViewIfNeeded();
    await screenshot(page, "run-network");
  });

  it("shows the network bound next to the measured throughput", async () => {
    await page.goto(`${BASE_URL}/experiments/${exp.id}`);
    const table = page.getByTestId("network-bound");
    await table.waitFor();
    const rows = table.locator("tbody tr");
    await expect.poll(() => rows.count()).toBe(2);
    // Sets at 201 Mbit/s, 4,131 B each: 6,082 ops/s (the 3 client machines share the testbed's
    // one client host).
    const first = await rows.first().textContent();
    expect(first).toContain("6,082");
    expect(first).toContain("client");
    await table.scrollIntoViewIfNeeded();
    await screenshot(page, "results-network-bound");
  });
});
