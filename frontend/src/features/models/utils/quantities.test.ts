import { describe, expect, it } from "vitest";
import { quantities, quantity, splitErrors } from "./quantities";

describe("quantity", () => {
  it("shows seconds as µs, s² as µs², utilisation as percent", () => {
    expect(quantity("mean_response_s", 0.00036683785766691135)).toEqual({
      label: "E[r] response time",
      value: "366.84",
      unit: "µs",
    });
    expect(quantity("var_response_s2", 6.852663175008507e-6)).toMatchObject({
      value: "6,852,663",
      unit: "µs²",
    });
    expect(quantity("utilization", 0.8688666538387532)).toMatchObject({
      value: "86.89",
      unit: "%",
    });
    expect(quantity("mean_jobs", 6.625825385179753)).toMatchObject({ value: "6.6258", unit: "" });
  });

  it("lists only known scalar outputs, in a fixed order", () => {
    const rows = quantities({
      units: {},
      mean_jobs: 2,
      utilization: 0.5,
      response_percentiles: [],
    });
    expect(rows.map((r) => r.label)).toEqual(["utilization ρ", "E[n] jobs in system"]);
  });
});

describe("splitErrors", () => {
  it("keeps the form's fields and joins the rest into one message", () => {
    expect(
      splitErrors({ servers: "too many", arrival_rate: "unstable", "": "bad" }, ["servers"]),
    ).toEqual({
      byField: { servers: "too many" },
      other: "arrival_rate: unstable; bad",
    });
    expect(splitErrors({}, ["servers"]).other).toBeUndefined();
  });
});
