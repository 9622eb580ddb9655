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
});
