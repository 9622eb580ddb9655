import { createLoader } from "nuqs";
import { describe, expect, it } from "vitest";
import { parameterLabels } from "@/lib/labels";
import { resultsSearchParams } from "@/lib/urlState/results";
import { SERVED_PARAMETERS } from "@/test/served";
import { configurationFacts, resultsHref } from "./RunConfiguration.utils";

const labels = parameterLabels(SERVED_PARAMETERS);

describe("configurationFacts", () => {
  it("names factor levels and fixed values with the schema's labels and units", () => {
    const facts = configurationFacts(
      { workers: 8, ratio: "1:9" },
      { servers: 3, value_size: 4096, sharded: true },
      labels,
    );
    expect(facts.factors).toEqual(["8 worker threads", "SET:GET 1:9"]);
    expect(facts.fixed).toEqual(["3 servers", "4096 B values", "sharded: yes"]);
  });

  it("lists a value once, as a factor, when the fixed values also name it", () => {
    const facts = configurationFacts({ workers: 16 }, { workers: 8, servers: 1 }, labels);
    expect(facts).toEqual({
      factors: ["16 worker threads"],
      fixed: ["1 server"],
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
