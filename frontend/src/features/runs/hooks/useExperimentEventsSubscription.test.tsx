import { act, renderHook } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { queryKeys } from "@/lib/queryKeys";
import { createWrapper } from "@/test/api";
import { eventsUrl, useExperimentEventsSubscription } from "./useExperimentEventsSubscription";

/** A stand-in for the browser's EventSource that the test drives by hand. */
class FakeEventSource {
  static last: FakeEventSource | null = null;
  readonly url: string;
  closed = false;
  onerror: (() => void) | null = null;
  private listeners = new Map<string, (e: MessageEvent<string>) => void>();

  constructor(url: string) {
    this.url = url;
    FakeEventSource.last = this;
  }

  addEventListener(type: string, l: (e: MessageEvent<string>) => void) {
    this.listeners.set(type, l);
  }

  removeEventListener(type: string) {
    this.listeners.delete(type);
  }

  close() {
    this.closed = true;
  }

  emit(type: string, data: object) {
    this.listeners.get(type)?.(new MessageEvent(type, { data: JSON.stringify(data) }));
  }
}

beforeEach(() => {
  FakeEventSource.last = null;
  vi.stubGlobal("EventSource", FakeEventSource);
});
afterEach(() => vi.unstubAllGlobals());

describe("useExperimentEventsSubscription", () => {
  it("connects only while enabled and closes on unmount", () => {
    const { wrapper } = createWrapper();
    const { rerender, unmount } = renderHook(({ on }) => useExperimentEventsSubscription(5, on), {
      wrapper,
      initialProps: { on: false },
    });
    expect(FakeEventSource.last).toBeNull();
    rerender({ on: true });
    const source = FakeEventSource.last as FakeEventSource | null;
    expect(source?.url).toBe(eventsUrl(5));
    unmount();
    expect(source?.closed).toBe(true);
  });

  it("is connected from the snapshot on, folds progress, and invalidates on run events", () => {
    const { wrapper, queryClient } = createWrapper();
    const keys = {
      detail: queryKeys.experiments.detail(5),
      runs: queryKeys.experiments.runs(5),
      configurations: queryKeys.experiments.configurations(5),
    };
    for (const key of Object.values(keys)) queryClient.setQueryData(key, {});
    const { result } = renderHook(() => useExperimentEventsSubscription(5, true), { wrapper });
    const source = FakeEventSource.last as FakeEventSource;
    expect(result.current.connected).toBe(false);
    act(() => source.emit("snapshot", { experiment_id: 5, runs: { queued: 2 } }));
    expect(result.current.connected).toBe(true);
    act(() =>
      source.emit("progress", {
        run_id: 9,
        source: "client:memtier-0",
        elapsed_s: 4,
        run_time_s: 60,
        ops_per_sec: 2940,
        mean_latency_us: 8000,
      }),
    );
    expect(result.current.live.progress[9]?.opsPerSec).toBe(2940);
    expect(queryClient.getQueryState(keys.detail)?.isInvalidated).toBe(false);
    act(() => source.emit("run", { run_id: 9, status: "succeeded", error: null }));
    expect(queryClient.getQueryState(keys.detail)?.isInvalidated).toBe(true);
    expect(queryClient.getQueryState(keys.runs)?.isInvalidated).toBe(true);
    expect(queryClient.getQueryState(keys.configurations)?.isInvalidated).toBe(false);
    expect(result.current.live.progress[9]).toBeUndefined();
  });
});
