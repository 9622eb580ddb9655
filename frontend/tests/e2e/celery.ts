// A real Celery worker for the specs that need one (the smoke run, the Azure testbed), with
// scripts/e2e.sh's settings (its database, queue, testbed sshd and fake Azure). Each spec starts
// its own only while it runs and stops it by its process, never by name.
import { type ChildProcess, spawn } from "node:child_process";
import { openSync, readFileSync } from "node:fs";
import { resolve } from "node:path";

const ROOT = resolve(__dirname, "../../..");

export interface CeleryWorker {
  /** The tail of the worker's log (error messages quote it). */
  log(): string;
  /** SIGTERM, then wait for the process to exit. */
  stop(): Promise<void>;
}

/** Starts `celery worker` on the queues named (suffixes of e2e.sh's MCSCOPE_RUNS_QUEUE: ""
 * for the run queue itself, "maintenance", "azure"); resolves once it is connected. */
export async function startCeleryWorker(
  queues: readonly string[],
  name: string,
  logPath: string,
): Promise<CeleryWorker> {
  const base = process.env.MCSCOPE_RUNS_QUEUE;
  if (!base) throw new Error("MCSCOPE_RUNS_QUEUE is not set: run through scripts/e2e.sh");
  const queue = queues.map((q) => (q ? `${base}.${q}` : base)).join(",");
  const fd = openSync(logPath, "a");
  const proc: ChildProcess = spawn(
    `${ROOT}/.venv/bin/celery`,
    ["-A", "worker.celery_app", "worker", "--loglevel=INFO", "-Q", queue, "--concurrency=1"]
      .concat(["--without-gossip", "--without-mingle", "--without-heartbeat"])
      .concat(["-n", `e2e-${name}-${process.pid}@%h`]),
    { cwd: ROOT, env: process.env, stdio: ["ignore", fd, fd] },
  );
  const log = () => readFileSync(logPath, "utf8").slice(-3000);
  const stop = async () => {
    if (proc.exitCode !== null || proc.signalCode !== null) return;
    const exited = new Promise((done) => proc.once("exit", done));
    proc.kill("SIGTERM");
    await exited;
  };
  // Ready once it has connected to the broker (a deadline only against a worker that hangs).
  for (let i = 0; i < 300 && !log().includes("ready."); i++) {
    if (proc.exitCode !== null) throw new Error(`celery worker exited: ${log()}`);
    await new Promise((done) => setTimeout(done, 200));
  }
  if (!log().includes("ready.")) {
    await stop();
    throw new Error(`celery worker not ready: ${log()}`);
  }
  return { log, stop };
}
