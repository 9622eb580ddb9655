/// <reference types="vitest/config" />
// Vite build, dev proxy to the FastAPI app, and the Vitest unit-test setup.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath, URL } from "node:url";
import react from "@vitejs/plugin-react";
import { defineConfig, type Plugin } from "vite";

// Swagger UI's assets (npm swagger-ui-dist) go into dist/swagger-ui, where the API's /docs
// page loads them from: the API docs work without any network beyond this server.
const SWAGGER_FILES = ["swagger-ui-bundle.js", "swagger-ui.css", "favicon-32x32.png"];
function swaggerUiAssets(): Plugin {
  const root = dirname(createRequire(import.meta.url).resolve("swagger-ui-dist/package.json"));
  return {
    name: "mcscope-swagger-ui-assets",
    apply: "build",
    generateBundle() {
      for (const file of SWAGGER_FILES) {
        this.emitFile({
          type: "asset",
          fileName: `swagger-ui/${file}`,
          source: readFileSync(join(root, file)),
        });
      }
    },
  };
}

// The FastAPI app, for the dev server (and the e2e fallback) to proxy /api to.
const API_URL = process.env.MCSCOPE_API_URL ?? "http://127.0.0.1:8000";

export default defineConfig({
  plugins: [react(), swaggerUiAssets()],
  resolve: { alias: { "@": fileURLToPath(new URL("./src", import.meta.url)) } },
  server: { host: "127.0.0.1", proxy: { "/api": API_URL, "/guide": API_URL } },
  // Only used by scripts/e2e.sh when the backend cannot serve dist itself.
  preview: { host: "127.0.0.1", proxy: { "/api": API_URL } },
  build: { chunkSizeWarningLimit: 5000 },
  // Components (.tsx) run in jsdom; the rest in node, which spares each file jsdom's start-up
  // (most of the suite's time). A .ts test that needs a DOM says `@vitest-environment jsdom`.
  test: {
    setupFiles: ["./src/test/setup.ts"],
    // A deadline against a hang only: `make test` runs these at SCHED_IDLE beside the load tests,
    // where a test waits for whatever CPU they leave (the default 5 s measures them, not it).
    testTimeout: 30_000,
    // One environment per worker, not per file: jsdom's start-up and the imports were most of the
    // suite (78 CPU s against 13, 70 files, 2026-11-30). What a file leaves behind is released
    // after each test (src/test/setup.ts: rendered trees, query clients; each file unstubs what
    // it stubbed).
    isolate: false,
    projects: [
      {
        extends: true,
        test: { name: "dom", environment: "jsdom", include: ["src/**/*.test.tsx"] },
      },
      { extends: true, test: { name: "node", environment: "node", include: ["src/**/*.test.ts"] } },
    ],
  },
});
