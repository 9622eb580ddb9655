// Test helpers: a fake API behind fetch (the real generated client runs), a fresh QueryClient.
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { type ReactNode, useState } from "react";
import { vi } from "vitest";
import { configureApiClient } from "@/lib/client";

export const TEST_BASE = "http://api.test";

export interface Call {
  method: string;
  path: string;
  query: URLSearchParams;
  body: unknown;
}

type Handler = (call: Call) => [number, unknown];

/** Routes every request of the generated client to `handler`; returns the calls made. */
export function mockApi(handler: Handler): Call[] {
  configureApiClient(TEST_BASE);
  const calls: Call[] = [];
  vi.stubGlobal("fetch", async (input: Request) => {
    const url = new URL(input.url);
    const text = await input.text();
    const call = {
      method: input.method,
      path: url.pathname,
      query: url.searchParams,
      body: text ? JSON.parse(text) : undefined,
    };
    calls.push(call);
    const [status, json] = handler(call);
    return new Response(status === 204 ? null : JSON.stringify(json), {
      status,
      headers: { "Content-Type": "application/json" },
    });
  });
  return calls;
}

// Every client a test made, released after each test (src/test/setup.ts): the unit tests share
// their workers' module state (`isolate: false` in vite.config.ts), so a query still fetching
// or retrying when its test ends must not reach the next test's fake API.
const clients = new Set<QueryClient>();

function testQueryClient(): QueryClient {
  const client = new QueryClient({
    // A hook's own retry rule still applies; its retries follow at once.
    defaultOptions: { queries: { retry: false, retryDelay: 0 }, mutations: { retry: false } },
  });
  clients.add(client);
  return client;
}

/** Cancels what every test client still fetches and empties its cache. */
export async function releaseQueryClients(): Promise<void> {
  const all = [...clients];
  clients.clear();
  for (const client of all) {
    await client.cancelQueries();
    client.clear();
  }
}

/** A fresh test client for what it wraps (one per mount). */
export function TestQueries({ children }: { children: ReactNode }) {
  const [client] = useState(testQueryClient);
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}

export function createWrapper(client?: QueryClient) {
  const queryClient = client ?? testQueryClient();
  if (client) clients.add(client);
  return {
    queryClient,
    wrapper: ({ children }: { children: ReactNode }) => (
      <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
    ),
  };
}
