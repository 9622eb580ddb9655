import { renderHook, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createWrapper } from "@/test/api";
import { REFRESH_MIN_MS, useServerFigureQuery } from "./useServerFigureQuery";

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

/** Answers every figure request with a figure naming how many requests came before. */
function serveFigures(): string[] {
  const urls: string[] = [];
  vi.stubGlobal("fetch", async (url: string) => {
    urls.push(url);
    return new Response(JSON.stringify({ data: [{ name: `fetch ${urls.length}` }], layout: {} }), {
      status: 200,
      headers: { "Content-Type": "application/json" },
    });
  });
  return urls;
}

const LIVE = { experimentId: 4, name: "live", params: { run_id: 9 } };

describe("useServerFigureQuery", () => {
  it("fetches the figure's JSON in the screen style", async () => {
    const urls = serveFigures();
    const { wrapper } = createWrapper();
    const { result } = renderHook(() => useServerFigureQuery(LIVE), { wrapper });
    await waitFor(() => expect(result.current.figure).toBeDefined());
    expect(urls).toEqual(["/api/v1/experiments/4/figures/live.json?run_id=9&style=screen"]);
  });

  it("refetches on refreshOn changes at most once per interval, the last change included", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true, toFake: ["setTimeout", "clearTimeout", "Date"] });
    const urls = serveFigures();
    const { wrapper } = createWrapper();
    const { result, rerender } = renderHook(
      ({ tick }: { tick: number }) => useServerFigureQuery(LIVE, false, tick),
      { wrapper, initialProps: { tick: 1 } },
    );
    await waitFor(() => expect(result.current.figure?.data[0]?.name).toBe("fetch 1"));
    // Three seconds arrive in a burst: one refetch, after the interval since the first fetch.
    rerender({ tick: 2 });
    rerender({ tick: 3 });
    rerender({ tick: 4 });
    expect(urls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(REFRESH_MIN_MS);
    await waitFor(() => expect(result.current.figure?.data[0]?.name).toBe("fetch 2"));
    await vi.advanceTimersByTimeAsync(5 * REFRESH_MIN_MS);
    expect(urls).toHaveLength(2);
    // The next second, a full interval later, redraws again.
    rerender({ tick: 5 });
    await waitFor(() => expect(result.current.figure?.data[0]?.name).toBe("fetch 3"));
  });
});
