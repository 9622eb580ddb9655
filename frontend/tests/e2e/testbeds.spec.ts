// End-to-end: SSH host keys on the Testbeds page. A host whose pinned key no longer matches
// (as after a rebuild) is re-pinned: Re-pin has the server read (in the background, the page
// polls) the key a real sshd on 127.0.0.1 offers, the page shows its fingerprint (compared here
// with `ssh-keygen -lf` of the host's key file), and Pin this key stores it. A host never
// reached shows that it is not pinned, with the one message a failed read gives.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BASE_URL, launch, screenshot } from "./browser";

// A valid ed25519 key no host here has: the key pinned before the "rebuild".
const OLD_KEY = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl";
const SSHD = join(process.cwd(), "..", "infra", "local", "sshd.sh");

let browser: Browser;
let page: Page;
let sshdDir: string;
let sshdEnv: NodeJS.ProcessEnv;
const name = `lab-${Date.now()}`;

function sql(statement: string): void {
  const db = process.env.E2E_DATABASE ?? "";
  execFileSync("psql", ["-h", "127.0.0.1", "-U", "postgres", "-d", db, "-q", "-c", statement]);
}

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

function fingerprintOf(file: string): string {
  // "256 SHA256:abc... comment (ED25519)" -> "SHA256:abc..."
  return execFileSync("ssh-keygen", ["-lf", file], { encoding: "utf8" }).split(" ")[1] ?? "";
}

beforeAll(async () => {
  sshdDir = mkdtempSync(join(tmpdir(), "mcscope-e2e-sshd-"));
  const port = await freePort();
  sshdEnv = { ...process.env, SSHD_DIR: sshdDir, SSHD_PORT: String(port) };
  execFileSync("bash", [SSHD, "start"], { env: sshdEnv });
  sql(
    `WITH tb AS (INSERT INTO testbeds (name, kind, description)
       VALUES ('${name}', 'remote', 'host keys') RETURNING id)
     INSERT INTO hosts (testbed_id, name, role, address, ssh_user, ssh_port, key_path,
                        host_key, host_key_source, host_key_pinned_at)
     SELECT id, 'rebuilt', 'server'::host_role, '127.0.0.1', 'root', ${port}, '/keys/id', '${OLD_KEY}',
            'scanned', now() FROM tb
     UNION ALL
     SELECT id, 'ghost', 'client'::host_role, '127.0.0.1', 'root', 1, '/keys/id', NULL, NULL, NULL FROM tb`,
  );
  browser = await launch();
  page = await browser.newPage({ viewport: { width: 1360, height: 900 } });
});

afterAll(async () => {
  await browser?.close();
  if (sshdEnv) execFileSync("bash", [SSHD, "stop"], { env: sshdEnv });
  if (sshdDir) rmSync(sshdDir, { recursive: true, force: true });
});

describe("SSH host keys on the Testbeds page", () => {
  it("re-pins a rebuilt host's key after showing its fingerprint", async () => {
    await page.goto(`${BASE_URL}/testbeds`);
    const card = page.locator("section.card", { hasText: name });
    const rebuilt = card.getByTestId("host-key-rebuilt");
    await rebuilt.waitFor();
    const offeredPrint = fingerprintOf(join(sshdDir, "ssh_host_ed25519_key.pub"));
    expect(offeredPrint).toMatch(/^SHA256:/);
    expect(await rebuilt.locator("code").textContent()).not.toContain(offeredPrint);
    expect(await card.getByTestId("host-key-ghost").textContent()).toContain("Not pinned");

    await rebuilt.getByRole("button", { name: "Re-pin" }).click();
    const offered = rebuilt.getByTestId("host-key-offered");
    await offered.waitFor();
    expect(await offered.textContent()).toContain(`ssh-ed25519 ${offeredPrint}`);
    expect(await offered.textContent()).toContain("instead of the pinned key");
    await screenshot(page, "testbeds-repin");

    await offered.getByRole("button", { name: "Pin this key" }).click();
    await offered.waitFor({ state: "detached" });
    await expect
      .poll(async () => rebuilt.locator("code.fingerprint").first().textContent())
      .toBe(`ssh-ed25519 ${offeredPrint}`);
    await rebuilt.getByRole("button", { name: "Re-pin" }).click();
    await rebuilt.getByText("The host offers the pinned key.").waitFor();
    await screenshot(page, "testbeds-pinned");
  });

  it("says why a host that cannot be read is not pinned", async () => {
    const ghost = page.locator("section.card", { hasText: name }).getByTestId("host-key-ghost");
    await ghost.getByRole("button", { name: "Pin key" }).click();
    await page.locator(".toast", { hasText: "127.0.0.1:1" }).waitFor();
    expect(await ghost.textContent()).toContain("Not pinned");
  });
});
