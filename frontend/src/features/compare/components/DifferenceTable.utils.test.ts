import { describe, expect, it } from "vitest";
import type { DifferenceRowPublic } from "@/api";
import { toCsv } from "@/features/export/utils/table";
import { parameterLabels } from "@/lib/labels";
import { SERVED_PARAMETERS } from "@/test/served";
import { differenceCsvTable, differenceLatexRows, intervalText } from "./DifferenceTable.utils";

const { values: valuesText } = parameterLabels(SERVED_PARAMETERS);

const ROW: DifferenceRowPublic = {
  experiment_id: 2,
  configuration_id: 20,
  base_experiment_id: 1,
  base_configuration_id: 10,
  values: { workers: 8 },
  metric: "throughput_per_s",
  unit: "ops/s",
  base: { n: 3, mean: 1000, std: 10 },
  other: { n: 3, mean: 1500, std: 10 },
  difference: 500,
  low: 477.33,
  high: 522.67,
  dof: 4,
  relative_percent: 50,
  relative_low: 46.1,
  relative_high: 54.0,
  verdict: "significant",
};
const NAMES = new Map([
  [1, "one middleware"],
  [2, "two middlewares"],
]);

describe("difference table exports", () => {
  it("CSV keeps full precision with units in the headers", () => {
    const csv = toCsv(differenceCsvTable([ROW], NAMES, 0.95, "ops/s", valuesText)).split("\r\n");
    expect(csv[0]).toContain("difference (ops/s),95% CI low (ops/s),95% CI high (ops/s)");
    expect(csv[1]).toBe(
      "two middlewares,8 worker threads,one middleware,10,20,3,1000,10,3,1500,10,500,477.33,522.67,4,50,46.1,54,significant",
    );
  });

  it("LaTeX rows show mean ± std, intervals and a star for significant rows only", () => {
    const tiny = { ...ROW, verdict: "not_distinguishable" as const, low: -1, high: 3 };
    const { columns, rows } = differenceLatexRows([ROW, tiny], NAMES, "ops/s", valuesText);
    expect(columns.map((c) => c.unit ?? "")).toEqual(["", "", "ops/s", "ops/s", "ops/s", "%", ""]);
    expect(rows[0]).toEqual([
      "two middlewares",
      "8 worker threads",
      { latex: "1000.0 $\\pm$ 10.0" },
      { latex: "1500.0 $\\pm$ 10.0" },
      "+500.0 [477.3, 522.7]",
      "+50.0 [46.1, 54.0]",
      { latex: "$\\ast$" },
    ]);
    expect(rows[1]?.[6]).toBe("");
  });

  it("shows a dash where there is no interval", () => {
    expect(intervalText(null, null)).toBe("–");
    expect(intervalText(-2.14, 0.147)).toBe("[-2.1, 0.1]");
  });
});
