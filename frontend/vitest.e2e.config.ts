// Vitest runs the Playwright end-to-end specs too (node environment), in four projects.
// "isolated": specs that share no state, two files at a time (each seeds and reads
// experiments of its own: names, ids and runs nobody else touches). "shared-state": one at a
// time, the specs that share state through the whole API: the Testbeds page lists every
// testbed (and costs.spec and azure.spec price the same VM sizes), and the Celery workers of
// azure.spec and rehearsal.spec carry out any message left on the run queues and, as every
// worker does when it starts (worker/tasks/recovery.py), re-queue runs left "running" without
// a worker, re-send "queued" runs without a message and take a latency-SLO search's next step.
// "run-state": the specs that leave runs "running" or "queued" for the UI to show, which such
// a worker would take over; they run when no worker is left, after the shared-state specs
// (the isolated ones start none and read only their own experiments). "real-load": the one
// spec that puts real load on the machine (a run on the local testbed), last: it cancels what the
// run-state specs left before its worker starts, and `make test` holds it until the load
// tests are over (they measure the machine; the other specs may run beside them).
// scripts/e2e.sh runs "isolated" beside "shared-state" then "run-state" (two Vitest processes:
// one process's projects of one group must have the same worker count), then "real-load"; a
// run of this config alone (spec files given to e2e.sh) takes the groups in turn.
import { fileURLToPath, URL } from "node:url";
import { defineConfig } from "vitest/config";

const SHARED_STATE = [
  "tests/e2e/azure-failed.spec.ts",
  "tests/e2e/azure.spec.ts",
  "tests/e2e/costs.spec.ts",
  "tests/e2e/network.spec.ts",
  "tests/e2e/rehearsal.spec.ts",
  "tests/e2e/run-page.spec.ts",
  "tests/e2e/testbeds.spec.ts",
];

const REAL_LOAD = ["tests/e2e/smoke-run.spec.ts"];

const RUN_STATE = [
  "tests/e2e/finish.spec.ts",
  "tests/e2e/live.spec.ts",
  "tests/e2e/slo-search.spec.ts",
];

const common = {
  environment: "node" as const,
  // A failed test's pages: URL, toasts and a screenshot (tests/e2e/on-failure.ts).
  setupFiles: ["tests/e2e/on-failure.ts"],
  testTimeout: 60_000,
  // A deadline against a hang only: seeding a spec's experiments (beforeAll) took over 60 s at
  // load 15 on the shared 2-core machine (results.spec.ts, 2026-11-29), with two specs at once
  // more still.
  hookTimeout: 180_000,
  // expect.poll waits for the UI to settle, not a deadline: a changed selection refetches
  // every figure the page shows, which on a shared 2-core machine can take seconds.
  expect: { poll: { timeout: 20_000 } },
};

export default defineConfig({
  resolve: { alias: { "@": fileURLToPath(new URL("./src", import.meta.url)) } },
  test: {
    projects: [
      {
        extends: true,
        test: {
          ...common,
          name: "isolated",
          include: ["tests/e2e/**/*.spec.ts"],
          exclude: [...SHARED_STATE, ...RUN_STATE, ...REAL_LOAD],
          fileParallelism: true,
          maxWorkers: 2,
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          ...common,
          name: "shared-state",
          include: SHARED_STATE,
          fileParallelism: false,
          maxWorkers: 1,
          sequence: { groupOrder: 1 },
        },
      },
      {
        extends: true,
        test: {
          ...common,
          name: "run-state",
          include: RUN_STATE,
          fileParallelism: true,
          maxWorkers: 2,
          sequence: { groupOrder: 2 },
        },
      },
      {
        extends: true,
        test: {
          ...common,
          name: "real-load",
          include: REAL_LOAD,
          fileParallelism: false,
          maxWorkers: 1,
          sequence: { groupOrder: 3 },
        },
      },
    ],
  },
});
