// Vitest setup: unmount rendered trees between tests. Testing Library is loaded only where a
// DOM exists, so the node-environment files do not pay for importing React DOM.
import { afterEach } from "vitest";

afterEach(async () => {
  if (typeof document === "undefined") return;
  const { cleanup } = await import("@testing-library/react");
  cleanup();
});
