import { describe, expect, it } from "vitest";
import { latexTable } from "./latexTable";

describe("latexTable", () => {
  it("writes a booktabs float with units in headers, caption and a safe label", () => {
    const tex = latexTable({
      columns: [
        { header: "configuration", align: "l" },
        { header: "throughput", unit: "ops/s", align: "r" },
        { header: "relative", unit: "%", align: "r" },
      ],
      rows: [["workers_8", { latex: "1.0 $\\pm$ 2.0" }, "+5.0"]],
      caption: "Throughput & 95% CI",
      label: "tab:compare throughput",
    });
    expect(tex.split("\n")).toEqual([
      "\\begin{table}[ht]",
      "\\centering",
      "\\caption{Throughput \\& 95\\% CI}",
      "\\label{tab:compare-throughput}",
      "\\begin{tabular}{lrr}",
      "\\toprule",
      "configuration & throughput (ops/s) & relative (\\%) \\\\",
      "\\midrule",
      "workers\\_8 & 1.0 $\\pm$ 2.0 & +5.0 \\\\",
      "\\bottomrule",
      "\\end{tabular}",
      "\\end{table}",
      "",
    ]);
  });
});
