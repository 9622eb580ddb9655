import { createLoader, createSerializer } from "nuqs";
import { describe, expect, it } from "vitest";
import { type ResultsViewState, resultsSearchParams } from "./results";

const serialize = createSerializer(resultsSearchParams);
const load = createLoader(resultsSearchParams);

/** A view where every control differs from its default. */
const CHANGED: ResultsViewState = {
  source: "middleware",
  type: "get",
  x: "workers",
  line: "clients_per_thread",
  fix: { ratio: "1:9", value_size: "4096" },
  window: { start: 5, end: 25 },
  logx: true,
  logy: true,
  band: "band",
  config: 12,
  metric: "queue",
  hlogx: true,
  plevel: "32",
  run: 41,
  mult: true,
};

describe("results view URL state", () => {
  it("round-trips every control through the search string", () => {
    const url = serialize("/experiments/3", CHANGED);
    const restored = load(new URL(url, "http://localhost").searchParams);
    expect(restored).toEqual(CHANGED);
  });

  it("covers every control of the schema", () => {
    expect(Object.keys(CHANGED).sort()).toEqual(Object.keys(resultsSearchParams).sort());
  });

  it("changes each control on its own and reads it back", () => {
    const defaults = load(new URLSearchParams());
    for (const key of Object.keys(CHANGED) as (keyof ResultsViewState)[]) {
      const url = serialize({ ...defaults, [key]: CHANGED[key] });
      const restored = load(new URL(url, "http://localhost").searchParams);
      expect(restored).toEqual({ ...defaults, [key]: CHANGED[key] });
    }
  });

  it("leaves defaults out of the URL and reads an empty URL as the default view", () => {
    const defaults = load(new URLSearchParams());
    expect(serialize(defaults)).toBe("");
    expect(defaults).toMatchObject({ source: "client", type: "all", window: null, band: "bars" });
  });

  it("ignores values a control cannot take", () => {
    const restored = load(new URLSearchParams("source=nowhere&band=zigzag&window=abc&run=x"));
    expect(restored).toMatchObject({ source: "client", band: "bars", window: null, run: null });
  });
});
