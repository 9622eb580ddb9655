// Experiments with finished runs seeded through the worker's real path: memtier JSON and
// middleware stats written in the tools' own formats (shaped like a closed system, see
// worker/seeding/shape.py), parsed, summarised and stored by the worker's own code
// (worker/scripts/seed_fixture_runs.py). A UI test on them fails when the worker -> database
// -> API path changes; expected figures come from what was seeded (SeededExperiment.seeded).
import { execFileSync } from "node:child_process";
import { resolve } from "node:path";
import type { ExperimentPublic } from "@/api";
import { api } from "./browser";

const ROOT = resolve(__dirname, "../../..");

/**
 * Runs a Python module as `python -m MODULE ARGS` would and returns its standard output, in a
 * child of the fork server scripts/e2e.sh started (infra/local/forkrun.py: the helpers'
 * imports are paid once, not per call). Throws, with its standard error, when it fails.
 */
export function runPythonModule(module: string, args: string[]): string {
  const socket = process.env.E2E_FORKRUN_SOCKET;
  if (!socket) throw new Error("E2E_FORKRUN_SOCKET is not set: run through scripts/e2e.sh");
  return execFileSync(
    resolve(ROOT, ".venv/bin/python"),
    ["-S", resolve(ROOT, "infra/local/forkrun.py"), "call", socket, module, ...args],
    { cwd: ROOT, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 },
  );
}

/** Runs a seed script against the e2e database with :exp set to the experiment id (and any
 * other psql variables given). For run states only: result rows come from seedRuns. */
export function runSeedSql(
  experimentId: number,
  file: string,
  vars: Record<string, string | number> = {},
): void {
  const db = process.env.E2E_DATABASE;
  if (!db) throw new Error("E2E_DATABASE is not set: run through scripts/e2e.sh");
  const args = ["-h", "127.0.0.1", "-U", "postgres", "-d", db, "-q"];
  const extra = Object.entries(vars).flatMap(([k, v]) => ["-v", `${k}=${v}`]);
  execFileSync("psql", [...args, "-v", `exp=${experimentId}`, ...extra, "-f", file]);
}

/** A monitor source's window mean per request: `column` = the run's client throughput x
 * `perRequest` (the utilization law for CPU, bytes per request for traffic). */
export type MonitorRow = readonly [source: string, column: string, perRequest: number];

function psql(statement: string): void {
  const db = process.env.E2E_DATABASE;
  if (!db) throw new Error("E2E_DATABASE is not set: run through scripts/e2e.sh");
  execFileSync("psql", ["-h", "127.0.0.1", "-U", "postgres", "-d", db, "-q", "-c", statement]);
}

/** The monitor's window summaries of every run, as the worker stores them
 * (worker/runs/monitoring.py: request type "all", throughput NaN); a host has 2 cores. */
export function seedMonitorRows(experimentId: number, rows: readonly MonitorRow[]): void {
  for (const [source, column, perRequest] of rows) {
    const host = source.startsWith("host:");
    psql(`INSERT INTO run_summaries (run_id, source, request_type, window_start_s,
      window_end_s, count, throughput, response_time_us, ${column}${host ? ", host_cpus" : ""})
      SELECT s.run_id, '${source}', 'all', s.window_start_s, s.window_end_s, 0, 'NaN', 'NaN',
             sum(s.throughput) * ${perRequest}${host ? ", 2" : ""}
      FROM run_summaries s JOIN runs r ON r.id = s.run_id
      WHERE r.experiment_id = ${experimentId} AND s.source LIKE 'client:%'
        AND s.request_type = 'all'
      GROUP BY s.run_id, s.window_start_s, s.window_end_s
      ON CONFLICT (run_id, source, request_type) DO UPDATE SET ${column} = excluded.${column}`);
  }
}

/** One seeded run: what its tool outputs say over the stable window, all instances. */
export interface SeededRun {
  run_id: number;
  repetition: number;
  throughput: number;
  response_time_us: number;
}

/** A configuration's seeded runs (N: virtual clients). */
export interface SeededConfiguration {
  configuration_id: number;
  values: Record<string, number | string>;
  clients: number;
  /** Percentiles ("25" .. "99") of the latencies the clients recorded (whole runs) and of
   * the middleware totals over the stable window, repetitions merged; null: none seeded. */
  percentiles_us: Record<string, number> | null;
  middleware_percentiles_us: Record<string, number> | null;
  runs: SeededRun[];
}

export interface SeedManifest {
  runs: number;
  configurations: SeededConfiguration[];
}

export interface SeedOptions {
  /** Throughput factor by worker count (response time divided by it: N is the same). */
  scale?: Record<number, number>;
  /** Only the first K configurations through the real path, the rest copies of their rows. */
  real?: number;
}

/** Seeds the experiment's runs; returns what was seeded. */
export function seedRuns(experimentId: number, options: SeedOptions = {}): SeedManifest {
  if (!process.env.MCSCOPE_DATABASE_URL) {
    throw new Error("MCSCOPE_DATABASE_URL is not set: run through scripts/e2e.sh");
  }
  const args = ["--experiment", String(experimentId)];
  for (const [workers, factor] of Object.entries(options.scale ?? {}))
    args.push("--scale", `${workers}=${factor}`);
  if (options.real !== undefined) args.push("--real", String(options.real));
  const out = runPythonModule("worker.scripts.seed_fixture_runs", args);
  return JSON.parse(out) as SeedManifest;
}

export type SeededExperiment = ExperimentPublic & { seeded: SeedManifest };

export async function createSeeded(
  name: string,
  workers: number[],
  clients = [1, 4, 8, 16],
  fixed: Record<string, unknown> = {},
  options: SeedOptions = {},
): Promise<SeededExperiment> {
  const exp = await api<ExperimentPublic>("/experiments", {
    method: "POST",
    body: JSON.stringify({
      name,
      template: "write_throughput",
      factors: { workers, clients_per_thread: clients },
      // 3 machines x 2 threads, one memtier instance each: N = 6 x clients_per_thread.
      fixed: {
        servers: 3,
        middlewares: 1,
        ratio: "1:0",
        client_machines: 3,
        threads_per_instance: 2,
        ...fixed,
      },
      repetitions: 3,
      // Short runs keep seeding fast; the stable window is still cut from both ends.
      run_time_s: 20,
      warmup_s: 4,
      cooldown_s: 4,
    }),
  });
  return { ...exp, seeded: seedRuns(exp.id, options) };
}

/** The seeded configuration with these factor values. */
export function seededConfiguration(
  exp: SeededExperiment,
  values: Record<string, number | string>,
): SeededConfiguration {
  const found = exp.seeded.configurations.find((c) =>
    Object.entries(values).every(([k, v]) => c.values[k] === v),
  );
  if (!found) throw new Error(`no seeded configuration ${JSON.stringify(values)}`);
  return found;
}

/** Mean and sample standard deviation over the configuration's repetitions. */
export function meanStd(values: number[]): { mean: number; std: number } {
  const mean = values.reduce((a, b) => a + b, 0) / values.length;
  const sq = values.reduce((a, b) => a + (b - mean) ** 2, 0);
  return { mean, std: values.length > 1 ? Math.sqrt(sq / (values.length - 1)) : 0 };
}
