// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from "vitest";
import { client } from "@/api/client.gen";
import { ApiError } from "./apiError";
import { configureApiClient, resetApiClient } from "./client";

const BASE = "http://api.test";

function answer(status: number, body: unknown): void {
  vi.stubGlobal(
    "fetch",
    async () =>
      new Response(JSON.stringify(body), {
        status,
        headers: { "Content-Type": "application/json" },
      }),
  );
}

afterEach(() => {
  vi.unstubAllGlobals();
  resetApiClient();
});

describe("the API client's configuration", () => {
  it("throws an error answer as one ApiError, however often it is configured", async () => {
    configureApiClient(BASE);
    configureApiClient(BASE);
    answer(500, { detail: "boom" });
    const error = await client.get({ url: "/api/v1/health" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(500);
    expect((error as ApiError).body).toEqual({ detail: "boom" }); // not an ApiError inside
  });

  it("is back as a fresh module has it after a reset, and configures again", async () => {
    configureApiClient(BASE);
    resetApiClient();
    expect(client.getConfig().baseUrl).toBe("");
    expect(client.getConfig().auth).toBeUndefined();
    answer(500, { detail: "boom" });
    // Not thrown, not wrapped: the error comes back as the generated client gives it.
    client.setConfig({ baseUrl: BASE });
    const result = await client.get({ url: "/api/v1/health" });
    expect(result.error).toEqual({ detail: "boom" });
    configureApiClient(BASE);
    const error = await client.get({ url: "/api/v1/health" }).catch((e: unknown) => e);
    expect((error as ApiError).body).toEqual({ detail: "boom" });
  });
});
