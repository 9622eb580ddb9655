// Experiments with finished runs seeded straight into the e2e database (seed_results.sql):
// summaries, per-second series and histograms, so results views need no testbed.
import { execFileSync } from "node:child_process";
import type { ExperimentPublic } from "@/api";
import { api } from "./browser";

/** Runs a seed script against the e2e database with :exp set to the experiment id (and any
 * other psql variables given). */
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

export async function createSeeded(
  name: string,
  workers: number[],
  clients = [1, 4, 8, 16],
  fixed: Record<string, unknown> = {},
): Promise<ExperimentPublic> {
  const exp = await api<ExperimentPublic>("/experiments", {
    method: "POST",
    body: JSON.stringify({
      name,
      template: "write_throughput",
      factors: { workers, clients_per_thread: clients },
      // 3 machines x 2 threads: N = 6 x clients_per_thread, as seed_results.sql assumes.
      fixed: {
        servers: 3,
        middlewares: 2,
        ratio: "1:0",
        client_machines: 3,
        threads_per_instance: 2,
        ...fixed,
      },
      repetitions: 3,
    }),
  });
  runSeedSql(exp.id, "tests/e2e/seed_results.sql");
  return exp;
}
