/// <reference types="vitest/config" />
// Vite build, dev proxy to the FastAPI app, and the Vitest unit-test setup.
import { fileURLToPath, URL } from "node:url";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

// The FastAPI app, for the dev server (and the e2e fallback) to proxy /api to.
const API_URL = process.env.MCSCOPE_API_URL ?? "http://127.0.0.1:8000";

export default defineConfig({
  plugins: [react()],
  resolve: { alias: { "@": fileURLToPath(new URL("./src", import.meta.url)) } },
  server: { host: "127.0.0.1", proxy: { "/api": API_URL } },
  // Only used by scripts/e2e.sh when the backend cannot serve dist itself.
  preview: { host: "127.0.0.1", proxy: { "/api": API_URL } },
  build: { chunkSizeWarningLimit: 5000 },
  test: {
    environment: "jsdom",
    include: ["src/**/*.test.{ts,tsx}"],
    setupFiles: ["./src/test/setup.ts"],
  },
});
