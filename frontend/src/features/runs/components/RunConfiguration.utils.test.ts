import { createLoader } from "nuqs";
import { describe, expect, it } from "vitest";
import type { ParameterPublic } from "@/api";
import { resultsSearchParams } from "@/features/results/urlState";
import { parameterLabels } from "@/lib/labels";
import { configurationFacts, resultsHref } from "./RunConfiguration.utils";

const param = (name: string, description: string, unit: string | null): ParameterPublic => ({
  name,
  description,
  unit,
  kind: "int",
  default: 1,
  minimum: null,
  maximum: null,
  choices: [],
});
const labels = parameterLabels([
  param("servers", "memcached servers", "servers"),
  param("workers", "middleware worker threads", "threads"),
  param("ratio", "SET:GET request ratio", null),
  param("value_size", "value size", "bytes"),
  param("sharded", "split multi-gets across servers", null),
]);

describe("configurationFacts", () => {
  it("names factor levels and fixed values with the schema's labels and units", () => {
    const facts = configurationFacts(
      { workers: 8, ratio: "1:9" },
      { servers: 3, value_size: 4096, sharded: true },
      labels,
    );
    expect(facts.factors).toEqual(["middleware worker threads 8", "SET:GET request ratio 1:9"]);
    expect(facts.fixed).toEqual([
      "memcached servers 3",
      "value size 4096 bytes",
      "split multi-gets across servers yes",
    ]);
  });

  it("lists a value once, as a factor, when the fixed values also name it", () => {
    const facts = configurationFacts({ workers: 16 }, { workers: 8, servers: 1 }, labels);
    expect(facts).toEqual({
      factors: ["middleware worker threads 16"],
      fixed: ["memcached servers 1"],
    });
  });
});

describe("resultsHref", () => {
  it("opens the results view on the configuration, its run and its levels", () => {
    const href = resultsHref(4, { id: 17, values: { workers: 8, ratio: "1:9" } }, 52);
    const [path, search] = href.split("?");
    expect(path).toBe("/experiments/4");
    const view = createLoader(resultsSearchParams)(`?${search}`);
    expect(view.config).toBe(17);
    expect(view.run).toBe(52);
    expect(view.fix).toEqual({ workers: "8", ratio: "1:9" });
  });

  it("pins nothing for an experiment without factors", () => {
    expect(resultsHref(2, { id: 5, values: {} }, 9)).toBe("/experiments/2?config=5&run=9");
  });
});
