// Vitest runs the Playwright end-to-end specs too (node environment, one file at a time).
import { fileURLToPath, URL } from "node:url";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { alias: { "@": fileURLToPath(new URL("./src", import.meta.url)) } },
  test: {
    environment: "node",
    include: ["tests/e2e/**/*.spec.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    fileParallelism: false,
    // expect.poll waits for the UI to settle, not a deadline: a changed selection refetches
    // every figure the page shows, which on a shared 2-core machine can take seconds.
    expect: { poll: { timeout: 20_000 } },
  },
});
