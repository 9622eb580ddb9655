import { describe, expect, it } from "vitest";
import { SERVED_METRICS, SERVED_PARAMETERS } from "@/test/served";
import { displayUnit, metricLabels, parameterLabels, TIME_UNIT, timeFromSeconds } from "./labels";

describe("parameter labels from the served schema", () => {
  const labels = parameterLabels(SERVED_PARAMETERS);

  it("uses the served label, never the description", () => {
    for (const p of SERVED_PARAMETERS) expect(labels.label(p.name)).toBe(p.label);
    expect(labels.label("workers")).toBe("worker threads");
    expect(labels.label("clients_per_thread")).toBe("clients per thread");
    expect(labels.label("value_size")).toBe("value size (bytes)");
    expect(labels.unit("value_size")).toBe("bytes");
  });

  it("titles with the server's title, the one capitalisation of its axis titles", () => {
    for (const p of SERVED_PARAMETERS) {
      expect(labels.title(p.name)).toBe(p.label.charAt(0).toUpperCase() + p.label.slice(1));
    }
    expect(labels.title("clients_per_thread")).toBe("Clients per thread");
    expect(labels.title("value_size")).toBe("Value size (bytes)");
  });

  it("reads unknown names with spaces; an empty schema (still loading) too", () => {
    expect(labels.label("no_such_thing")).toBe("no such thing");
    expect(parameterLabels(undefined).label("worker_count")).toBe("worker count");
    expect(parameterLabels(undefined).text("workers", 8)).toBe("workers 8");
  });

  it("words a level with the served legend, as server figures do", () => {
    expect(labels.text("workers", 8)).toBe("8 worker threads");
    expect(labels.text("workers", 1)).toBe("1 worker thread");
    expect(labels.text("clients_per_thread", 4)).toBe("4 clients per thread");
    expect(labels.text("ratio", "1:9")).toBe("SET:GET 1:9");
    expect(labels.text("sharded", true)).toBe("sharded: yes");
    expect(labels.values({ workers: 16, middlewares: 1 })).toBe("16 worker threads, 1 middleware");
    expect(labels.values({})).toBe("all");
  });
});

describe("metric labels from the metric table", () => {
  const metrics = metricLabels(SERVED_METRICS);

  it("labels every metric and prints µs for us", () => {
    for (const m of SERVED_METRICS) expect(metrics.label(m.name)).toBe(m.label);
    expect(metrics.heading("p99_us")).toBe("99th percentile response time (µs)");
    expect(metrics.heading("throughput_per_s")).toBe("throughput (ops/s)");
    expect(metrics.heading("no_such_metric")).toBe("no such metric");
    expect(metrics.title("throughput_per_s")).toBe("Throughput (ops/s)");
    expect(metrics.title("p99_us")).toBe("99th percentile response time (µs)");
  });

  it("shows units as researchers write them", () => {
    expect(displayUnit("us")).toBe("µs");
    expect(displayUnit("ops/s")).toBe("ops/s");
    expect(displayUnit(null)).toBeUndefined();
  });

  it("shows every time in the metric table's unit, from seconds", () => {
    expect(TIME_UNIT).toBe(displayUnit("us"));
    expect(timeFromSeconds(0.00036684)).toBeCloseTo(366.84, 9);
    expect(timeFromSeconds(null)).toBeNull();
  });
});
