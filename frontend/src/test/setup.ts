// Vitest setup: after each test, unmount rendered trees, release the tests' query clients and
// put the API client back as a fresh module has it (a file that points it at the fake API must
// not point the next file's there: the files share their worker's modules, `isolate: false` in
// vite.config.ts). Testing Library is loaded only where a DOM exists, so the node-environment
// files do not pay for importing React DOM.
import { afterEach } from "vitest";

afterEach(async () => {
  if (typeof document === "undefined") return;
  const { cleanup } = await import("@testing-library/react");
  cleanup();
  const { releaseQueryClients } = await import("./api");
  await releaseQueryClients();
  const { resetApiClient } = await import("@/lib/client");
  resetApiClient();
});
