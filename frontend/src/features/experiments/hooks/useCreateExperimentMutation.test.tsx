import { act, renderHook, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { fieldErrors } from "@/lib/apiError";
import { queryKeys } from "@/lib/queryKeys";
import { createWrapper, mockApi } from "@/test/api";
import { useCreateExperimentMutation } from "./useCreateExperimentMutation";

afterEach(() => vi.unstubAllGlobals());

const listKey = queryKeys.experiments.list({ skip: 0, limit: 20 });
const detailKey = queryKeys.experiments.detail(7);

describe("useCreateExperimentMutation", () => {
  it("posts the design and invalidates the experiment lists only", async () => {
    const calls = mockApi(() => [201, { id: 7, name: "a" }]);
    const { wrapper, queryClient } = createWrapper();
    queryClient.setQueryData(listKey, { data: [], count: 0 });
    queryClient.setQueryData(detailKey, { id: 7 });
    const { result } = renderHook(() => useCreateExperimentMutation(), { wrapper });
    await act(() => result.current.mutateAsync({ name: "a", factors: { workers: [8, 16] } }));
    expect(calls[0]).toMatchObject({
      method: "POST",
      path: "/api/v1/experiments",
      body: { name: "a", factors: { workers: [8, 16] } },
    });
    expect(queryClient.getQueryState(listKey)?.isInvalidated).toBe(true);
    expect(queryClient.getQueryState(detailKey)?.isInvalidated).toBe(false);
  });

  it("rejects with a 422 whose details map onto the form's fields", async () => {
    mockApi(() => [
      422,
      {
        detail: [
          {
            loc: ["body", "factors", "workers"],
            msg: "0 is outside the allowed range 1..256 threads",
          },
        ],
      },
    ]);
    const { wrapper } = createWrapper();
    const { result } = renderHook(() => useCreateExperimentMutation(), { wrapper });
    act(() => result.current.mutate({ name: "a", factors: { workers: [0] } }));
    await waitFor(() => expect(result.current.isError).toBe(true));
    expect(fieldErrors(result.current.error)).toEqual({
      "factors.workers": "0 is outside the allowed range 1..256 threads",
    });
  });
});
