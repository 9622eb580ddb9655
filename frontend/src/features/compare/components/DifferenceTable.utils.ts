// Shaping difference rows (numbers computed by the server) for the screen, CSV and LaTeX.
import type { DifferenceRowPublic } from "@/api";

type Verdict = DifferenceRowPublic["verdict"];

import { formatNumber } from "@/features/experiments/utils/format";
import type { LatexCell, LatexColumn } from "@/features/export/utils/latexTable";
import type { SummaryTable } from "@/features/export/utils/table";

export const VERDICT_TEXT: Record<Verdict, string> = {
  significant: "significant",
  not_distinguishable: "not distinguishable from noise",
  insufficient: "too few repetitions",
};

/** A configuration's factor levels in words: "8 worker threads, 4 clients per thread". */
export type ValuesText = (values: Record<string, unknown>) => string;

export function experimentName(names: Map<number, string>, id: number): string {
  return names.get(id) ?? `#${id}`;
}

/** "[-2.1, 0.1]", or "–" when there is no interval. */
export function intervalText(low: number | null | undefined, high: number | null | undefined) {
  if (low === null || low === undefined || high === null || high === undefined) return "–";
  return `[${formatNumber(low)}, ${formatNumber(high)}]`;
}

function pct(level: number): string {
  return `${Math.round(level * 1000) / 10}%`;
}

/** Full-precision numbers for the CSV export; units in the headers. */
export function differenceCsvTable(
  rows: DifferenceRowPublic[],
  names: Map<number, string>,
  level: number,
  unit: string,
  valuesText: ValuesText,
): SummaryTable {
  const ci = `${pct(level)} CI`;
  return {
    header: [
      "experiment",
      "configuration",
      "base experiment",
      "base configuration id",
      "configuration id",
      "base n",
      `base mean (${unit})`,
      `base std (${unit})`,
      "n",
      `mean (${unit})`,
      `std (${unit})`,
      `difference (${unit})`,
      `${ci} low (${unit})`,
      `${ci} high (${unit})`,
      "welch dof",
      "relative difference (%)",
      `relative ${ci} low (%)`,
      `relative ${ci} high (%)`,
      "verdict",
    ],
    rows: rows.map((r) => [
      experimentName(names, r.experiment_id),
      valuesText(r.values),
      experimentName(names, r.base_experiment_id),
      r.base_configuration_id,
      r.configuration_id,
      r.base.n,
      r.base.mean,
      r.base.std ?? null,
      r.other.n,
      r.other.mean,
      r.other.std ?? null,
      r.difference,
      r.low ?? null,
      r.high ?? null,
      r.dof ?? null,
      r.relative_percent ?? null,
      r.relative_low ?? null,
      r.relative_high ?? null,
      r.verdict,
    ]),
  };
}

function pm(mean: number, std: number | null | undefined): LatexCell {
  return {
    latex: `${mean.toFixed(1)} $\\pm$ ${std === null || std === undefined ? "--" : std.toFixed(1)}`,
  };
}

function withInterval(value: number | null | undefined, low?: number | null, high?: number | null) {
  if (value === null || value === undefined) return "--";
  const v = `${value >= 0 ? "+" : ""}${value.toFixed(1)}`;
  return low === null || low === undefined || high === null || high === undefined
    ? v
    : `${v} [${low.toFixed(1)}, ${high.toFixed(1)}]`;
}

/** Columns and rows of the LaTeX table: mean ± std, difference and relative difference with
 * their intervals, and a star on significant rows (explained in the caption). */
export function differenceLatexRows(
  rows: DifferenceRowPublic[],
  names: Map<number, string>,
  unit: string,
  valuesText: ValuesText,
): { columns: LatexColumn[]; rows: LatexCell[][] } {
  return {
    columns: [
      { header: "experiment", align: "l" },
      { header: "configuration", align: "l" },
      { header: "base", unit, align: "r" },
      { header: "compared", unit, align: "r" },
      { header: "difference", unit, align: "r" },
      { header: "relative", unit: "%", align: "r" },
      { header: "sig.", align: "c" },
    ],
    rows: rows.map((r) => [
      experimentName(names, r.experiment_id),
      valuesText(r.values),
      pm(r.base.mean, r.base.std),
      pm(r.other.mean, r.other.std),
      withInterval(r.difference, r.low, r.high),
      withInterval(r.relative_percent, r.relative_low, r.relative_high),
      r.verdict === "significant" ? { latex: "$\\ast$" } : "",
    ]),
  };
}
