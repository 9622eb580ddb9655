// Experiments with finished runs seeded straight into the e2e database (seed_results.sql):
// summaries, per-second series and histograms, so results views need no testbed.
import { execFileSync } from "node:child_process";
import type { ExperimentPublic } from "@/api";
import { api } from "./browser";

export async function createSeeded(
  name: string,
  workers: number[],
  clients = [1, 4, 8, 16],
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
      },
      repetitions: 3,
    }),
  });
  const db = process.env.E2E_DATABASE;
  if (!db) throw new Error("E2E_DATABASE is not set: run through scripts/e2e.sh");
  execFileSync("psql", [
    "-h",
    "127.0.0.1",
    "-U",
    "postgres",
    "-d",
    db,
    "-q",
    "-v",
    `exp=${exp.id}`,
    "-f",
    "tests/e2e/seed_results.sql",
  ]);
  return exp;
}
