import { describe, expect, it } from "vitest";
import type { ParameterPublic } from "@/api";
import { displayUnit, parameterLabel, parameterLabels } from "./labels";

const p = (name: string, description: string, unit: string | null = null): ParameterPublic => ({
  name,
  description,
  unit,
  kind: "int",
  default: 1,
  minimum: 1,
  maximum: 2,
  choices: [],
});

describe("parameter labels from the served schema", () => {
  it("shortens descriptions: no parenthetical notes, nothing after ': '", () => {
    expect(parameterLabel(p("workers", "middleware worker threads"))).toBe(
      "middleware worker threads",
    );
    expect(
      parameterLabel(p("clients_per_thread", "virtual clients (connections) per thread")),
    ).toBe("virtual clients per thread");
    expect(parameterLabel(p("ratio", "SET:GET request ratio"))).toBe("SET:GET request ratio");
    expect(
      parameterLabel(p("replication", "servers each set is written to: a number, or one / half")),
    ).toBe("servers each set is written to");
    expect(
      parameterLabel(p("load_generator", "load generator (auto: memtier when installed)")),
    ).toBe("load generator");
  });

  it("looks labels and units up by name; unknown names read with spaces; us is µs", () => {
    const labels = parameterLabels([p("value_size", "value size", "bytes")]);
    expect(labels.label("value_size")).toBe("value size");
    expect(labels.unit("value_size")).toBe("bytes");
    expect(labels.label("queue_capacity")).toBe("queue capacity");
    expect(displayUnit("us")).toBe("µs");
    expect(displayUnit("ops/s")).toBe("ops/s");
    expect(displayUnit(null)).toBeUndefined();
  });

  it("prints a unit only where the label does not already name it", () => {
    const labels = parameterLabels([
      p("servers", "memcached servers", "servers"),
      p(
        "middlewares",
        "middleware instances (0: clients talk to the servers directly)",
        "middlewares",
      ),
      p("value_size", "value size", "bytes"),
      p("queue_capacity", "middleware work queue capacity", "requests"),
      p("ratio", "SET:GET request ratio"),
      p("sharded", "split multi-gets across servers"),
    ]);
    expect(labels.heading("servers")).toBe("memcached servers");
    expect(labels.heading("middlewares")).toBe("middleware instances");
    expect(labels.heading("value_size")).toBe("value size (bytes)");
    expect(labels.heading("queue_capacity")).toBe("middleware work queue capacity (requests)");
    expect(labels.heading("clients_per_thread")).toBe("clients per thread");
    expect(labels.text("servers", 3)).toBe("memcached servers 3");
    expect(labels.text("value_size", 128)).toBe("value size 128 bytes");
    expect(labels.text("ratio", "1:9")).toBe("SET:GET request ratio 1:9");
    expect(labels.text("sharded", true)).toBe("split multi-gets across servers yes");
    expect(labels.text("workers", 8)).toBe("workers 8");
  });
});
