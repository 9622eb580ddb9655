import { describe, expect, it } from "vitest";
import type { ParameterPublic, TemplatePublic } from "@/api";
import { NEW_SEARCH } from "@/features/slo";
import { SERVED_DESIGN_FIELDS } from "@/test/served";
import {
  DEFAULT_POWER,
  DEFAULT_RULE,
  describeRange,
  EMPTY_FORM,
  FULL_GRID,
  fromTemplate,
  parseGenerators,
  parseLevel,
  parseLevels,
  toPowerQuery,
  toSpec,
  unusedParameters,
  withDesignDefaults,
} from "./designForm";

function param(name: string, kind: string, extra: Partial<ParameterPublic> = {}): ParameterPublic {
  return {
    name,
    kind,
    default: null,
    description: "",
    label: name,
    title: name,
    legend: "{v}",
    unit: null,
    minimum: null,
    maximum: null,
    choices: [],
    ...extra,
  };
}

const params = [
  param("workers", "int", { unit: "threads", minimum: 1, maximum: 256 }),
  param("sharded", "bool"),
  param("ratio", "ratio"),
  param("replication", "replication", { unit: "servers", minimum: 1, maximum: 16 }),
  param("load_generator", "choice", { choices: ["auto", "memtier"] }),
];

describe("parseLevel", () => {
  it("types levels by kind and leaves anything else as typed for the server to judge", () => {
    expect(parseLevel("int", " 64 ")).toBe(64);
    expect(parseLevel("int", "6.5")).toBe("6.5");
    expect(parseLevel("bool", "Yes")).toBe(true);
    expect(parseLevel("bool", "false")).toBe(false);
    expect(parseLevel("bool", "maybe")).toBe("maybe");
    expect(parseLevel("ratio", "1:9")).toBe("1:9");
    expect(parseLevel("replication", "3")).toBe(3);
    expect(parseLevel("replication", "half")).toBe("half");
  });

  it("splits comma separated levels and drops empty ones", () => {
    expect(parseLevels("int", "8, 16,,32 ,")).toEqual([8, 16, 32]);
  });
});

describe("toSpec and fromTemplate", () => {
  const template: TemplatePublic = {
    id: "replication",
    title: "Effect of replication",
    description: "desc",
    factors: { servers: [3, 5, 7], replication: ["one", "half", "all"], sharded: [false, true] },
    fixed: { ratio: "1:19" },
    repetitions: 5,
    run_time_s: 120,
    warmup_s: 20,
    cooldown_s: 10,
    measured: [],
  };

  it("round-trips a template through the form into the request body", () => {
    const form = fromTemplate(template, "my name");
    expect(form.factors).toEqual([
      { name: "servers", levels: "3, 5, 7" },
      { name: "replication", levels: "one, half, all" },
      { name: "sharded", levels: "false, true" },
    ]);
    expect(toSpec(form, [...params, param("servers", "int")])).toEqual({
      name: "my name",
      description: "desc",
      template: "replication",
      factors: { servers: [3, 5, 7], replication: ["one", "half", "all"], sharded: [false, true] },
      fixed: { ratio: "1:19" },
      repetitions: 5,
      run_time_s: 120,
      warmup_s: 20,
      cooldown_s: 10,
    });
  });

  it("offers only parameters not yet used", () => {
    const form = {
      ...EMPTY_FORM,
      factors: [{ name: "workers", levels: "8" }],
      fixed: [{ name: "ratio", value: "1:9" }],
    };
    expect(unusedParameters(form, params).map((p) => p.name)).toEqual([
      "sharded",
      "replication",
      "load_generator",
    ]);
  });
});

describe("describeRange", () => {
  it("shows range and unit per kind", () => {
    expect(describeRange(params[0] as ParameterPublic)).toBe("1..256 threads");
    expect(describeRange(params[1] as ParameterPublic)).toBe("true or false");
    expect(describeRange(params[3] as ParameterPublic)).toBe("1..16 servers, or one / half / all");
    expect(describeRange(params[4] as ParameterPublic)).toBe("one of auto, memtier");
  });
});

describe("fractions and power inputs", () => {
  it("sends a fraction by resolution or by generators, and none for the full grid", () => {
    const base = { ...EMPTY_FORM, name: "f" };
    expect(toSpec(base, []).fraction).toBeUndefined();
    expect(
      toSpec({ ...base, fraction: { ...FULL_GRID, mode: "resolution", resolution: 4 } }, [])
        .fraction,
    ).toEqual({ resolution: 4 });
    const gens = { ...FULL_GRID, mode: "generators" as const, generators: "D = AB; E = -AC, " };
    expect(toSpec({ ...base, fraction: gens }, []).fraction).toEqual({
      generators: ["D = AB", "E = -AC"],
    });
    expect(parseGenerators(" , ")).toEqual([]);
  });

  it("asks for a typed std or an experiment's, never both", () => {
    expect(toPowerQuery(DEFAULT_POWER)).toEqual({ alpha: 0.05, power: 0.8 });
    expect(toPowerQuery({ ...DEFAULT_POWER, noiseStd: "120" })).toEqual({
      alpha: 0.05,
      power: 0.8,
      noise_std: 120,
    });
    expect(toPowerQuery({ ...DEFAULT_POWER, noiseStd: "120", noiseExperimentId: 7 })).toEqual({
      alpha: 0.05,
      power: 0.8,
      noise_experiment_id: 7,
    });
  });
});

describe("design fields", () => {
  const served = Object.fromEntries(SERVED_DESIGN_FIELDS.map((f) => [f.name, f.default]));

  it("sends none the form leaves out, so the server applies its own defaults", () => {
    const spec = toSpec({ ...EMPTY_FORM, name: "n" }, []);
    for (const f of SERVED_DESIGN_FIELDS) expect(spec, f.name).not.toHaveProperty(f.name);
  });

  it("fills the fields left out with the served defaults, keeping what was typed", () => {
    const form = withDesignDefaults({ ...EMPTY_FORM, warmup_s: 3 }, SERVED_DESIGN_FIELDS);
    expect(toSpec(form, [])).toMatchObject({ ...served, warmup_s: 3 });
    expect(withDesignDefaults(EMPTY_FORM, undefined)).toEqual(EMPTY_FORM);
  });

  it("leaves a rule's minimum to the server while repetitions are unknown", () => {
    const rule = {
      metric: "throughput_per_s" as const,
      half_width_pct: 5,
      confidence: 0.95,
      max_repetitions: 10,
    };
    expect(toSpec({ ...EMPTY_FORM, rule }, []).repetition_rule).not.toHaveProperty(
      "min_repetitions",
    );
    expect(toSpec({ ...EMPTY_FORM, rule, repetitions: 4 }, []).repetition_rule).toMatchObject({
      min_repetitions: 4,
    });
  });
});

describe("a latency-SLO search design", () => {
  it("sends the search instead of the grid's factors, fraction and rule, which it keeps", () => {
    const form = {
      ...EMPTY_FORM,
      name: "slo",
      factors: [{ name: "workers", levels: "8, 32" }],
      fixed: [{ name: "workers", value: "8" }],
      fraction: { ...FULL_GRID, mode: "resolution" as const },
      rule: DEFAULT_RULE,
      slo: { ...NEW_SEARCH, target_ms: "2", max_rate: "4000" },
    };
    const spec = toSpec(form, params);
    expect(spec.factors).toEqual({});
    expect(spec.fixed).toEqual({ workers: 8 });
    expect(spec.slo_search).toEqual({ statistic: "percentile", target_us: 2000, max_rate: 4000 });
    expect(spec.fraction).toBeUndefined();
    expect(spec.repetition_rule).toBeUndefined();
    // Back to the grid: its fields were kept.
    const grid = toSpec({ ...form, slo: null }, params);
    expect(grid.factors).toEqual({ workers: [8, 32] });
    expect(grid.slo_search).toBeUndefined();
    expect(grid.fraction).toEqual({ resolution: 3 });
  });
});
