import { describe, expect, it } from "vitest";
import type { ConfigurationResultPublic } from "@/api";
import { parameterLabels } from "@/lib/labels";
import { SERVED_PARAMETERS } from "@/test/served";
import { escapeLatex, summaryTable, toCsv, toLatex } from "./table";

const units = { throughput: "ops/s", response_time: "us" };
const labels = parameterLabels(SERVED_PARAMETERS);
const rows: ConfigurationResultPublic[] = [
  {
    configuration_id: 1,
    index: 0,
    values: { workers: 8, ratio: "1:9" },
    repetitions: 3,
    throughput_mean: 6680.25,
    throughput_std: 41.5,
    response_time_us_mean: 7012.4,
    response_time_us_std: 88.04,
    keys_per_s_mean: null,
  },
  {
    configuration_id: 2,
    index: 1,
    values: { workers: 16, ratio: "1:9" },
    repetitions: 0,
    throughput_mean: null,
    throughput_std: null,
    response_time_us_mean: null,
    response_time_us_std: null,
    keys_per_s_mean: null,
  },
];

describe("toCsv", () => {
  it("writes a header with units, full-precision numbers and empty cells for missing values", () => {
    const csv = toCsv(summaryTable(rows, ["workers", "ratio"], units, labels));
    expect(csv.split("\r\n")).toEqual([
      "worker threads,SET:GET ratio,repetitions,throughput mean (ops/s),throughput std (ops/s),response time mean (µs),response time std (µs)",
      "8,1:9,3,6680.25,41.5,7012.4,88.04",
      "16,1:9,0,,,,",
      "",
    ]);
  });

  it("heads factor columns with the schema's label and unit, never the API name", () => {
    const table = summaryTable([], ["value_size", "clients_per_thread"], units, labels);
    expect(table.header.slice(0, 2)).toEqual(["value size (bytes)", "clients per thread"]);
  });

  it("quotes cells with commas, quotes and newlines", () => {
    const csv = toCsv({ header: ['a "b"', "c,d"], rows: [["x\ny", 1]] });
    expect(csv).toBe('"a ""b""","c,d"\r\n"x\ny",1\r\n');
  });
});

describe("toLatex", () => {
  it("escapes LaTeX specials", () => {
    expect(escapeLatex("a_b & 50% #1 $x {y} ~ ^ \\")).toBe(
      "a\\_b \\& 50\\% \\#1 \\$x \\{y\\} \\textasciitilde{} \\textasciicircum{} \\textbackslash{}",
    );
  });

  it("renders a booktabs table of mean ± std cells", () => {
    const tex = toLatex(rows, ["workers", "ratio"], units, "Write throughput_1", labels);
    const lines = tex.split("\n");
    expect(lines).toContain("\\begin{tabular}{llrrr}");
    expect(lines).toContain(
      "worker threads & SET:GET ratio & reps & throughput (ops/s) & response time (us) \\\\",
    );
    expect(lines).toContain("8 & 1:9 & 3 & 6680.3 $\\pm$ 41.5 & 7012.4 $\\pm$ 88.0 \\\\");
    expect(lines).toContain("16 & 1:9 & 0 & -- $\\pm$ -- & -- $\\pm$ -- \\\\");
    expect(lines).toContain("\\caption{Write throughput\\_1}");
  });
});
