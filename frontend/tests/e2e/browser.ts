// Launching Debian's chromium through playwright-core (no browser download), and screenshots.
import { mkdirSync } from "node:fs";
import {
  type Browser,
  type BrowserContext,
  chromium,
  type Page,
  type Request,
} from "playwright-core";

export const BASE_URL = process.env.E2E_BASE_URL ?? "http://127.0.0.1:8000";
// The API token scripts/e2e.sh configured (MCSCOPE_ADMIN_TOKEN of its uvicorn).
export const TOKEN = process.env.E2E_TOKEN ?? "";
const TOKEN_KEY = "mcscope.token"; // src/lib/auth.ts
const SCREENSHOT_DIR = process.env.E2E_SCREENSHOTS ?? "test-results/screenshots";

/** Every browser this spec file launched and has not closed (tests/e2e/on-failure.ts shows
 * their pages when a test fails). */
export const launched = new Set<Browser>();

/** What each page asked the network for and has no answer to yet (method, URL, when sent),
 * and its requests that failed: when a test waits out its timeout, on-failure.ts prints them,
 * which tells a request the page never sent from one sent and never answered. */
export const requests = new WeakMap<
  Page,
  { pending: Map<object, { what: string; sent: number }>; failed: string[] }
>();

function watchRequests(context: BrowserContext): void {
  const of = (request: Request) => {
    let page: Page;
    try {
      page = request.frame().page();
    } catch {
      return undefined; // a service worker's request has no frame
    }
    let seen = requests.get(page);
    if (!seen) {
      seen = { pending: new Map(), failed: [] };
      requests.set(page, seen);
    }
    return seen;
  };
  context.on("request", (r) => {
    const path = r.url().replace(BASE_URL, "");
    of(r)?.pending.set(r, { what: `${r.method()} ${path}`, sent: Date.now() });
  });
  context.on("requestfinished", (r) => of(r)?.pending.delete(r));
  context.on("requestfailed", (r) => {
    const seen = of(r);
    const what = seen?.pending.get(r)?.what ?? r.url();
    seen?.pending.delete(r);
    seen?.failed.push(`${what}: ${r.failure()?.errorText ?? "failed"}`);
  });
}

/**
 * Chromium, logged in once for every spec: each new context (and so each newPage) gets the
 * token in localStorage before the app's scripts run, as the login page would leave it.
 * `loggedIn: false` gives a browser that has to go through the login page.
 */
export async function launch({ loggedIn = true } = {}): Promise<Browser> {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
  launched.add(browser);
  browser.on("disconnected", () => launched.delete(browser));
  // browser.newPage() goes through newContext() too.
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (options) => {
    const context = await newContext(options);
    watchRequests(context);
    if (loggedIn && TOKEN) {
      await context.addInitScript(([key, token]) => window.localStorage.setItem(key, token), [
        TOKEN_KEY,
        TOKEN,
      ] as const);
    }
    return context;
  };
  return browser;
}

export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  // From the top: a full-page shot keeps the scroll position, so a sticky panel would be
  // drawn where the window was, halfway down the page, not where the page lays it out. The
  // scroll is put back after: a spec may go on with mouse positions on screen.
  const at = await page.evaluate(() => {
    const was = [window.scrollX, window.scrollY] as const;
    window.scrollTo(0, 0);
    return was;
  });
  await page.screenshot({ path: `${SCREENSHOT_DIR}/${name}.png`, fullPage: true });
  await page.evaluate(([x, y]) => window.scrollTo(x, y), at);
}

/** JSON from the real API, for setting up and checking state beside the UI. */
export async function api<T>(path: string, init?: RequestInit): Promise<T> {
  const res = await fetch(`${BASE_URL}/api/v1${path}`, {
    ...init,
    headers: {
      "Content-Type": "application/json",
      ...(TOKEN ? { Authorization: `Bearer ${TOKEN}` } : {}),
      ...init?.headers,
    },
  });
  if (!res.ok)
    throw new Error(`${init?.method ?? "GET"} ${path}: HTTP ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}
