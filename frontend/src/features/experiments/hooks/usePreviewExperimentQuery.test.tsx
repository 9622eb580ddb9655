import { renderHook, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { ExperimentCreate } from "@/api";
import { createWrapper, mockApi } from "@/test/api";
import { usePreviewExperimentQuery } from "./usePreviewExperimentQuery";

afterEach(() => vi.unstubAllGlobals());

function answer(spec: ExperimentCreate): [number, unknown] {
  const levels = Object.values(spec.factors ?? {}).map((l) => l.length);
  const configurations = levels.reduce((a, b) => a * b, 1);
  const runs = configurations * (spec.repetitions ?? 3);
  return [
    200,
    {
      configurations,
      runs,
      estimated_seconds: runs * 98,
      overhead: { seconds: 8, source: "default", runs: 0, testbed_id: null, testbed: "local" },
      points: [],
    },
  ];
}

describe("usePreviewExperimentQuery", () => {
  it("asks for the first design at once, then only once typing settles", async () => {
    const calls = mockApi((c) => answer(c.body as ExperimentCreate));
    const { wrapper } = createWrapper();
    const { result, rerender } = renderHook(({ spec }) => usePreviewExperimentQuery(spec, 50), {
      wrapper,
      initialProps: { spec: { name: "p", factors: { workers: [8] } } as ExperimentCreate },
    });
    rerender({ spec: { name: "p", factors: { workers: [8, 16] } } });
    rerender({ spec: { name: "p", factors: { workers: [8, 16, 32] }, repetitions: 5 } });
    await waitFor(() => expect(result.current.preview?.configurations).toBe(3));
    expect(result.current.preview?.runs).toBe(15);
    // The first design is asked at once; of the later ones, only the one typing settled on.
    expect(calls.map((c) => c.body)).toEqual([
      { name: "p", factors: { workers: [8] } },
      { name: "p", factors: { workers: [8, 16, 32] }, repetitions: 5 },
    ]);
  });

  it("keeps the last good preview shown while the design is invalid", async () => {
    const calls = mockApi((c) => {
      const spec = c.body as ExperimentCreate;
      if (spec.factors?.workers?.includes(0)) {
        return [422, { detail: [{ loc: ["body", "factors", "workers"], msg: "out of range" }] }];
      }
      return answer(spec);
    });
    const { wrapper } = createWrapper();
    const { result, rerender } = renderHook(({ spec }) => usePreviewExperimentQuery(spec, 10), {
      wrapper,
      initialProps: { spec: { name: "p", factors: { workers: [8, 16] } } as ExperimentCreate },
    });
    await waitFor(() => expect(result.current.preview?.configurations).toBe(2));
    rerender({ spec: { name: "p", factors: { workers: [8, 0] } } });
    await waitFor(() => expect(result.current.error).not.toBeNull());
    expect(result.current.preview?.configurations).toBe(2);
    expect(calls).toHaveLength(2);
  });
});
