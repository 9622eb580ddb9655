import { renderHook, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ApiError } from "@/lib/apiError";
import { queryKeys } from "@/lib/queryKeys";
import { createWrapper, mockApi } from "@/test/api";
import { useGetExperimentsQuery } from "./useGetExperimentsQuery";

afterEach(() => vi.unstubAllGlobals());

describe("useGetExperimentsQuery", () => {
  it("sends paging and filters, omits empty ones, and caches under the list key", async () => {
    const calls = mockApi(() => [200, { data: [], count: 0 }]);
    const { wrapper, queryClient } = createWrapper();
    const params = { skip: 20, limit: 10, q: "", template: "replication" };
    const { result } = renderHook(() => useGetExperimentsQuery(params), { wrapper });
    await waitFor(() => expect(result.current.experiments).toEqual({ data: [], count: 0 }));
    expect(calls).toHaveLength(1);
    expect(calls[0]?.path).toBe("/api/v1/experiments");
    expect(Object.fromEntries(calls[0]?.query ?? [])).toEqual({
      skip: "20",
      limit: "10",
      template: "replication",
    });
    expect(queryClient.getQueryData(queryKeys.experiments.list(params))).toEqual({
      data: [],
      count: 0,
    });
  });

  it("surfaces server errors as ApiError with status and detail", async () => {
    mockApi(() => [500, { detail: "database is down" }]);
    const { wrapper } = createWrapper();
    const { result } = renderHook(() => useGetExperimentsQuery({ skip: 0, limit: 10 }), {
      wrapper,
    });
    await waitFor(() => expect(result.current.error).not.toBeNull());
    expect(result.current.error).toBeInstanceOf(ApiError);
    expect((result.current.error as ApiError).status).toBe(500);
    expect(result.current.error?.message).toBe("database is down");
  });
});
