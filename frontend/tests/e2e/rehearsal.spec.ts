// End-to-end: "Rehearse locally" on the New Azure testbed form. A size with no bandwidth on the
// chosen basis is refused beside its field; the reports' sizes are built as shaped namespace
// hosts on this machine by a Celery worker on this run's maintenance queue (the queue builds
// go to), registered as a `rehearsal` testbed whose card lists each host's link cap and what is
// and is not like the cloud; Delete (the name typed again) tears it down.
import { type ChildProcess, spawn } from "node:child_process";
import { openSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { resolve } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BASE_URL, launch, screenshot } from "./browser";

const ROOT = resolve(__dirname, "../../..");
const WORKER_LOG = resolve(tmpdir(), `mcscope-e2e-rehearsal-${process.pid}.log`);
const name = `rehe2e${Date.now().toString(36)}`;

let browser: Browser;
let page: Page;
let worker: ChildProcess | undefined;

function workerLog(): string {
  try {
    return readFileSync(WORKER_LOG, "utf8").slice(-3000);
  } catch {
    return "";
  }
}

/** A Celery worker on this run's maintenance queue, where builds and teardowns are sent. */
async function startWorker(): Promise<void> {
  const log = openSync(WORKER_LOG, "a");
  const proc = spawn(
    `${ROOT}/.venv/bin/celery`,
    ["-A", "worker.celery_app", "worker", "--loglevel=INFO", "--concurrency=1"]
      .concat(["-Q", `${process.env.MCSCOPE_RUNS_QUEUE}.maintenance`])
      .concat(["--without-gossip", "--without-mingle", "--without-heartbeat"])
      .concat(["-n", `e2e-rehearsal-${process.pid}@%h`]),
    { cwd: ROOT, env: process.env, stdio: ["ignore", log, log] },
  );
  worker = proc;
  for (let i = 0; i < 300 && !workerLog().includes("ready."); i++) {
    if (proc.exitCode !== null) throw new Error(`celery worker exited: ${workerLog()}`);
    await new Promise((done) => setTimeout(done, 200));
  }
  if (!workerLog().includes("ready.")) throw new Error(`celery worker not ready: ${workerLog()}`);
}

async function role(key: "servers" | "middlewares" | "clients", count: number, size: string) {
  await page.locator(`input[name="${key}-count"]`).fill(String(count));
  await page.locator(`input[name="${key}-size"]`).fill(size);
}

beforeAll(async () => {
  await startWorker();
  browser = await launch();
  page = await browser.newPage({ viewport: { width: 1360, height: 900 } });
});

afterAll(async () => {
  await browser?.close();
  if (worker && worker.exitCode === null) {
    const exited = new Promise((done) => worker?.once("exit", done));
    worker.kill("SIGTERM");
    await exited;
  }
});

describe("Rehearse locally", () => {
  it("refuses a size without a figure, builds a shaped rehearsal, shows it, deletes it", async () => {
    await page.goto(`${BASE_URL}/testbeds`);
    await page.getByRole("button", { name: "New Azure testbed" }).click();
    await page.getByTestId("new-azure-testbed").waitFor();
    await page.locator('input[name="name"]').fill(name);
    await page.locator('input[name="ssh_source_cidr"]').fill("203.0.113.0/24");
    await role("servers", 1, "Standard_A1_v2");
    await role("clients", 1, "Standard_A2_v2");
    // The reports did not measure a size that became Standard_A4_v2: refused on its field.
    await role("middlewares", 1, "Standard_A4_v2");
    await page.getByRole("button", { name: "Rehearse locally" }).click();
    const sizeError = page.getByTestId("error-middlewares");
    await sizeError.waitFor();
    expect(await sizeError.textContent()).toContain(
      "no measured network bandwidth is known for Standard_A4_v2",
    );
    await screenshot(page, "rehearsal-refused");

    await role("middlewares", 1, "Standard_A8_v2");
    await page.getByRole("button", { name: "Rehearse locally" }).click();
    // Built by the worker, then registered: its testbed's card holds the rehearsal.
    const card = page.getByTestId(`rehearsal-${name}`);
    await card.waitFor({ timeout: 120_000 });
    await page
      .getByTestId(`rehearsal-${name}`)
      .locator(".badge-ready")
      .waitFor({ timeout: 120_000 });
    const testbedCard = page.locator("section.card", { has: card });
    expect(await testbedCard.locator("h2").textContent()).toContain("(rehearsal)");
    const hosts = (await page.getByTestId(`rehearsal-hosts-${name}`).textContent()) ?? "";
    expect(hosts).toContain(`${name}-server-1serverStandard_A1_v2101 Mbit/s`);
    expect(hosts).toContain(`${name}-middleware-1middlewareStandard_A8_v2802 Mbit/s`);
    expect(hosts).toContain(`${name}-client-1clientStandard_A2_v2201 Mbit/s`);
    const words = (await page.getByTestId(`rehearsal-fidelity-${name}`).textContent()) ?? "";
    expect(words).toContain("Like the cloud");
    expect(words).toContain("Not like the cloud");
    expect(words).toContain("the CPUs are this machine's, shared by every host");
    await card.scrollIntoViewIfNeeded();
    await screenshot(page, "rehearsal-ready");

    await card.getByRole("button", { name: "Delete…" }).click();
    await card.locator('input[name="confirm-rehearsal-name"]').fill(name);
    await card.getByRole("button", { name: `Delete ${name}` }).click();
    await card.locator(".badge-deleted").waitFor({ timeout: 120_000 });
    expect(await card.textContent()).toContain("torn down");
  }, 300_000);
});
