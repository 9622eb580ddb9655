import { act, renderHook } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { queryKeys } from "@/lib/queryKeys";
import { createWrapper, mockApi } from "@/test/api";
import { useStartExperimentMutation } from "./useStartExperimentMutation";

afterEach(() => vi.unstubAllGlobals());

describe("useStartExperimentMutation", () => {
  it("starts one experiment and invalidates its detail, runs and the lists, not its configurations", async () => {
    const calls = mockApi(() => [200, { queued: 6, already_done: 0 }]);
    const { wrapper, queryClient } = createWrapper();
    const keys = {
      detail: queryKeys.experiments.detail(3),
      runs: queryKeys.experiments.runs(3),
      list: queryKeys.experiments.list({ skip: 0, limit: 20 }),
      configurations: queryKeys.experiments.configurations(3),
      other: queryKeys.experiments.detail(4),
    };
    for (const key of Object.values(keys)) queryClient.setQueryData(key, {});
    const { result } = renderHook(() => useStartExperimentMutation(3), { wrapper });
    const started = await act(() => result.current.mutateAsync());
    expect(started).toEqual({ queued: 6, already_done: 0 });
    expect(calls[0]).toMatchObject({ method: "POST", path: "/api/v1/experiments/3/start" });
    const invalid = (key: readonly unknown[]) => queryClient.getQueryState(key)?.isInvalidated;
    expect(invalid(keys.detail)).toBe(true);
    expect(invalid(keys.runs)).toBe(true);
    expect(invalid(keys.list)).toBe(true);
    expect(invalid(keys.configurations)).toBe(false);
    expect(invalid(keys.other)).toBe(false);
  });
});
