import { renderHook, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { queryKeys } from "@/lib/queryKeys";
import { createWrapper, mockApi } from "@/test/api";
import { useGetRunSeriesQuery } from "./useGetRunSeriesQuery";

afterEach(() => vi.unstubAllGlobals());

describe("useGetRunSeriesQuery", () => {
  it("waits for a run, then asks for its series by source and type under the run's key", async () => {
    const calls = mockApi(() => [200, { run_id: 9 }]);
    const { wrapper, queryClient } = createWrapper();
    const { result, rerender } = renderHook(
      ({ runId }: { runId?: number }) => useGetRunSeriesQuery(4, runId, "middleware", "set"),
      { wrapper, initialProps: {} },
    );
    expect(result.current.isLoading).toBe(false);
    expect(calls).toHaveLength(0);
    rerender({ runId: 9 });
    await waitFor(() => expect(result.current.series).toEqual({ run_id: 9 }));
    expect(calls[0]?.path).toBe("/api/v1/experiments/4/runs/9/series");
    expect(Object.fromEntries(calls[0]?.query ?? [])).toEqual({
      source: "middleware",
      request_type: "set",
    });
    expect(
      queryClient.getQueryData(queryKeys.experiments.runSeries(4, 9, "middleware", "set")),
    ).toEqual({ run_id: 9 });
  });
});
