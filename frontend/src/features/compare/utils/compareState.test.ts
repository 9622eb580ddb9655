// @vitest-environment jsdom
// The compare view's URL state: exact query strings, parsing back, defaults, bad values,
// saved-view conversion, and the hook pushing history entries.
import { act, renderHook } from "@testing-library/react";
import { createLoader } from "nuqs";
import { withNuqsTestingAdapter } from "nuqs/adapters/testing";
import { describe, expect, it, vi } from "vitest";
import { SERVED_METRICS } from "@/test/served";
import { useCompareState } from "../hooks/useCompareState";
import {
  type CompareState,
  compareParsers,
  compareUrlKeys,
  effectiveBase,
  effectiveMetric,
  fromViewState,
  isMonitorSource,
  offeredMetrics,
  PROCESS_ROLES,
  parseAsBrush,
  selectedRole,
  serializeCompare,
  tableMetrics,
  toViewState,
  withBrushScope,
} from "./compareState";

const load = createLoader(compareParsers, { urlKeys: compareUrlKeys });

const FULL: CompareState = {
  experiments: [3, 1],
  base: 1,
  configurations: [17, 42],
  baseConfiguration: 42,
  metric: "response_time_us",
  x: "clients_per_thread",
  group: "workers",
  band: "ci",
  source: "middleware",
  role: null,
  requestType: "get",
  window: { start: 10, end: 70 },
  onlyDifferences: true,
  brush: {
    workers: [[19.8, 40]],
    throughput_per_s: [
      [-1.5, 500],
      [900, 1.2e21],
    ],
  },
};

describe("compare URL state", () => {
  it("serializes to short readable keys and parses back exactly", () => {
    const qs = serializeCompare(FULL);
    expect(qs).toBe(
      "?e=3,1&base=1&c=17,42&cbase=42&metric=response_time_us&x=clients_per_thread" +
        "&group=workers&band=ci&source=middleware&type=get&window=10-70&diff=true" +
        "&brush=throughput_per_s:-1.5_500,900_1.2e%2B21~workers:19.8_40",
    );
    expect(load(qs)).toEqual(FULL);
  });

  it("leaves defaults out of the URL and fills them in when reading", () => {
    const qs = serializeCompare({ ...load(""), experiments: [5, 6] });
    expect(qs).toBe("?e=5,6");
    expect(load(qs)).toEqual({
      experiments: [5, 6],
      base: null,
      configurations: [],
      baseConfiguration: null,
      metric: "throughput_per_s",
      x: null,
      group: "experiment",
      band: "std",
      source: "client",
      role: null,
      requestType: "all",
      window: null,
      onlyDifferences: false,
      brush: null,
    });
  });

  it("falls back to defaults on values it cannot read", () => {
    const s = load("?band=iqr&metric=latency&type=other&base=x&source=proxy&window=70");
    expect([s.band, s.requestType, s.base, s.source, s.window]).toEqual([
      "std",
      "all",
      null,
      "client",
      null,
    ]);
  });

  it("reads a brush back exactly and refuses malformed ones", () => {
    const brush = {
      a_b: [[0, 1]] as [number, number][],
      c: [
        [-3, -1],
        [2.5, 4],
      ] as [number, number][],
    };
    expect(parseAsBrush.parse(parseAsBrush.serialize(brush))).toEqual(brush);
    for (const bad of [
      "workers",
      "workers:1",
      "workers:2_1",
      "workers:a_b",
      ":1_2",
      "w:1_2_3",
      "w:_2",
    ])
      expect(parseAsBrush.parse(bad), bad).toBeNull();
    expect(load("?brush=workers:2_1").brush).toBeNull();
  });

  it("drops the brush when the selection or metric it was dragged on changes", () => {
    const s = load(serializeCompare(FULL));
    expect(withBrushScope(s, { band: "se", group: "x" })).toEqual({ band: "se", group: "x" });
    expect(withBrushScope(s, { source: "middleware", experiments: [3, 1] })).toEqual({
      source: "middleware",
      experiments: [3, 1],
    });
    for (const patch of [
      { experiments: [3] },
      { source: "client" as const },
      { requestType: "all" as const },
      { window: null },
      { metric: "throughput_per_s" },
    ])
      expect(withBrushScope(s, patch)).toEqual({ ...patch, brush: null });
    expect(withBrushScope(s, { metric: "p99_us", brush: { p99_us: [[1, 2]] } }).brush).toEqual({
      p99_us: [[1, 2]],
    });
  });

  it("round-trips through a saved view's state", () => {
    expect(fromViewState(toViewState(FULL))).toEqual(FULL);
    expect(toViewState(FULL)).toMatchObject({
      experiment_ids: [3, 1],
      base_experiment_id: 1,
      group_by: "workers",
      band: "ci",
      request_type: "get",
      window_start_s: 10,
      window_end_s: 70,
      only_differences: true,
      brush: FULL.brush,
    });
    // A view saved by an older client with fields missing opens with defaults.
    expect(fromViewState({ experiment_ids: [2] })).toEqual({ ...load(""), experiments: [2] });
  });

  it("offers the metrics of the chosen side and shows throughput for one it cannot show", () => {
    const client = offeredMetrics(SERVED_METRICS, "client").map((m) => m.name);
    expect(client).toContain("p99_us");
    expect(client).not.toContain("queue_time_us");
    const middleware = offeredMetrics(SERVED_METRICS, "middleware").map((m) => m.name);
    // Every request metric; the monitor's (host, net, process sources) are not the middleware's.
    expect(middleware).toEqual(
      SERVED_METRICS.filter((m) => m.sources.includes("middleware")).map((m) => m.name),
    );
    expect(middleware).toContain("queue_time_us");
    expect(middleware).not.toContain("process_cpu_pct");
    expect(effectiveMetric("p99_us", offeredMetrics(SERVED_METRICS, "client"))).toBe("p99_us");
    expect(effectiveMetric("latency", offeredMetrics(SERVED_METRICS, "client"))).toBe(
      "throughput_per_s",
    );
    expect(effectiveMetric("queue_time_us", offeredMetrics(SERVED_METRICS, "client"))).toBe(
      "throughput_per_s",
    );
  });

  it("offers the monitor's hosts, interfaces and processes as sides, with their own metrics", () => {
    // The URL and a saved view keep a monitor side.
    expect(load("?source=process").source).toBe("process");
    expect(load("?source=host").source).toBe("host");
    expect(load("?source=net").source).toBe("net");
    expect(serializeCompare({ source: "net" })).toBe("?source=net");
    const view = toViewState({ ...FULL, source: "process" });
    expect(view.source).toBe("process");
    expect(fromViewState(view).source).toBe("process");
    expect(fromViewState({ ...view, source: "net" }).source).toBe("net");
    expect(isMonitorSource("host") && isMonitorSource("process")).toBe(true);
    expect(isMonitorSource("net")).toBe(true);
    expect(offeredMetrics(SERVED_METRICS, "net").map((m) => m.name)).toEqual([
      "net_rx_bytes_per_s",
      "net_tx_bytes_per_s",
      "net_rx_packets_per_s",
      "net_tx_packets_per_s",
    ]);
    expect(isMonitorSource("client") || isMonitorSource("middleware")).toBe(false);
    const process = offeredMetrics(SERVED_METRICS, "process");
    const host = offeredMetrics(SERVED_METRICS, "host").map((m) => m.name);
    expect(process.map((m) => m.name)).toContain("process_cpu_pct");
    expect(host).toContain("host_cpu_busy_pct");
    expect(host).not.toContain("throughput_per_s");
    // A request metric chosen before switching sides falls back to the side's first metric,
    // and the table asks only for what the side reports (the API's 422 otherwise).
    const shown = effectiveMetric("throughput_per_s", process);
    expect(shown).toBe(process[0]?.name);
    expect(tableMetrics(shown, process)).toEqual([shown]);
    const client = offeredMetrics(SERVED_METRICS, "client");
    expect(tableMetrics("p99_us", client)).toEqual([
      "throughput_per_s",
      "response_time_us",
      "p99_us",
    ]);
  });

  it("keeps one role's processes in the URL and a view, asked for on the process side only", () => {
    // The roles are the API's HostRole values.
    expect([...PROCESS_ROLES].sort()).toEqual(["client", "middleware", "server"]);
    const qs = serializeCompare({ experiments: [3, 1], source: "process", role: "middleware" });
    expect(qs).toBe("?e=3,1&source=process&role=middleware");
    const s = load(qs);
    expect([s.source, s.role]).toEqual(["process", "middleware"]);
    expect(selectedRole(s)).toBe("middleware");
    expect(load("?source=process&role=monitor").role).toBeNull();
    // On another side a role in the URL is not sent (the API answers 422 for it).
    expect(selectedRole({ source: "client", role: "middleware" })).toBeNull();
    expect(toViewState({ ...FULL, source: "client", role: "server" }).role).toBeNull();
    const view = toViewState({ ...FULL, source: "process", role: "server" });
    expect(view.role).toBe("server");
    expect(fromViewState(view).role).toBe("server");
    expect(fromViewState({ ...view, role: undefined }).role).toBeNull();
    // A brush dragged on all processes lapses when one role is chosen.
    const brushed = { ...FULL, source: "process" as const };
    expect(withBrushScope(brushed, { role: "middleware" })).toEqual({
      role: "middleware",
      brush: null,
    });
  });

  it("uses the chosen base only while it is selected", () => {
    expect(effectiveBase({ experiments: [3, 1], base: 1 })).toBe(1);
    expect(effectiveBase({ experiments: [3, 1], base: 7 })).toBe(3);
    expect(effectiveBase({ experiments: [], base: null })).toBeNull();
  });

  it("the hook reads the URL and pushes a history entry per change", async () => {
    const onUrlUpdate = vi.fn();
    const { result } = renderHook(() => useCompareState(), {
      wrapper: withNuqsTestingAdapter({ searchParams: "?e=3,1&band=se", onUrlUpdate }),
    });
    expect(result.current[0].experiments).toEqual([3, 1]);
    expect(result.current[0].band).toBe("se");
    await act(async () => {
      await result.current[1]({ group: "workers", onlyDifferences: true });
    });
    expect(onUrlUpdate).toHaveBeenCalledOnce();
    const event = onUrlUpdate.mock.calls[0]?.[0];
    expect(event.queryString).toBe("?e=3,1&band=se&group=workers&diff=true");
    expect(event.options.history).toBe("push");
    expect(result.current[0].group).toBe("workers");
  });
});
