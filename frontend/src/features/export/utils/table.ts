// The results summary table (mean ± std per configuration) and its CSV and LaTeX renderings.
import type { ConfigurationResultPublic } from "@/api";
import { formatValue } from "@/features/experiments/utils/format";
import { displayUnit, type ParameterLabels } from "@/lib/labels";

/** How factor columns are headed: the parameter schema's labels (useParameterLabels). */
export type FactorHeadings = Pick<ParameterLabels, "label">;

export interface SummaryTable {
  header: string[];
  rows: (string | number | null)[][];
}

/**
 * Factor columns, repetitions, then mean and std of throughput and response time; headers in
 * words with units ("worker threads", "response time mean (µs)"), as the page's table reads.
 */
export function summaryTable(
  rows: ConfigurationResultPublic[],
  factors: string[],
  units: Record<string, string>,
  labels: FactorHeadings,
): SummaryTable {
  const tp = displayUnit(units.throughput) ?? "ops/s";
  const rt = displayUnit(units.response_time) ?? "µs";
  return {
    header: [
      ...factors.map(labels.label),
      "repetitions",
      `throughput mean (${tp})`,
      `throughput std (${tp})`,
      `response time mean (${rt})`,
      `response time std (${rt})`,
    ],
    rows: rows.map((r) => [
      ...factors.map((f) => formatValue(r.values[f])),
      r.repetitions,
      r.throughput_mean,
      r.throughput_std,
      r.response_time_us_mean,
      r.response_time_us_std,
    ]),
  };
}

function csvCell(value: string | number | null): string {
  if (value === null) return "";
  const s = String(value);
  return /[",\n\r]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
}

/** RFC 4180 CSV; missing values are empty cells, numbers keep full precision. */
export function toCsv(table: SummaryTable): string {
  return [table.header, ...table.rows]
    .map((row) => row.map(csvCell).join(","))
    .join("\r\n")
    .concat("\r\n");
}

const LATEX_SPECIALS: Record<string, string> = {
  "\\": "\\textbackslash{}",
  "&": "\\&",
  "%": "\\%",
  $: "\\$",
  "#": "\\#",
  _: "\\_",
  "{": "\\{",
  "}": "\\}",
  "~": "\\textasciitilde{}",
  "^": "\\textasciicircum{}",
};

export function escapeLatex(text: string): string {
  return text.replace(/[\\&%$#_{}~^]/g, (c) => LATEX_SPECIALS[c] ?? c);
}

function latexNumber(value: number | null, digits: number): string {
  return value === null ? "--" : value.toFixed(digits);
}

/**
 * A booktabs table with "mean $\pm$ std" cells, as lab reports print them.
 * Factor columns are left-aligned text; measurement columns right-aligned.
 */
export function toLatex(
  rows: ConfigurationResultPublic[],
  factors: string[],
  units: Record<string, string>,
  caption: string,
  labels: FactorHeadings,
): string {
  const tp = escapeLatex(units.throughput ?? "ops/s");
  const rt = escapeLatex(units.response_time ?? "us");
  const head = [
    ...factors.map((f) => escapeLatex(labels.label(f))),
    "reps",
    `throughput (${tp})`,
    `response time (${rt})`,
  ];
  const body = rows.map((r) =>
    [
      ...factors.map((f) => escapeLatex(formatValue(r.values[f]))),
      String(r.repetitions),
      `${latexNumber(r.throughput_mean, 1)} $\\pm$ ${latexNumber(r.throughput_std, 1)}`,
      `${latexNumber(r.response_time_us_mean, 1)} $\\pm$ ${latexNumber(r.response_time_us_std, 1)}`,
    ].join(" & "),
  );
  return [
    "\\begin{table}[ht]",
    "\\centering",
    `\\begin{tabular}{${"l".repeat(factors.length)}rrr}`,
    "\\toprule",
    `${head.join(" & ")} \\\\`,
    "\\midrule",
    ...body.map((line) => `${line} \\\\`),
    "\\bottomrule",
    "\\end{tabular}",
    `\\caption{${escapeLatex(caption)}}`,
    "\\end{table}",
    "",
  ].join("\n");
}
