// Test helpers: a fake API behind fetch (the real generated client runs), a fresh QueryClient.
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import type { ReactNode } from "react";
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

export function createWrapper(client?: QueryClient) {
  const queryClient =
    client ??
    new QueryClient({
      // A hook's own retry rule still applies; its retries follow at once.
      defaultOptions: { queries: { retry: false, retryDelay: 0 }, mutations: { retry: false } },
    });
  return {
    queryClient,
    wrapper: ({ children }: { children: ReactNode }) => (
      <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
    ),
  };
}
