// Differences against the base: mean ± std on both sides, absolute and relative difference with
// Welch intervals over repetitions, and a significant / not distinguishable mark. Paged, so
// thousands of configurations stay smooth; CSV and LaTeX of the whole table come from the
// server (the same request), LaTeX at column or page width.
import { useMemo, useState } from "react";
import type { DifferencesPublic, DifferencesRequest } from "@/api";
import { handleError } from "@/components/common/handleError";
import { Pager } from "@/components/common/Pager";
import { AddToReport, differencesTarget } from "@/features/report";
import { slug } from "@/lib/download";
import { formatNumber } from "@/lib/format";
import { downloadDifferencesTable, type TableFileFormat, type TableWidth } from "@/lib/serverTable";
import {
  experimentName,
  intervalText,
  type ValuesText,
  VERDICT_TEXT,
} from "./DifferenceTable.utils";

const PAGE = 25;

/** Props of DifferenceTable. */
export interface DifferenceTableProps {
  differences: DifferencesPublic;
  /** The request the rows answer: the exports ask the server for the same table. */
  request: DifferencesRequest;
  names: Map<number, string>;
  /** The metric all rows share, as the metric table labels it ("99th percentile ..."). */
  metricLabel: string;
  unit: string;
  /** A configuration's levels in words (the served parameter legends). */
  valuesText: ValuesText;
  /** What the base is, for the caption: an experiment name or a configuration. */
  baseLabel: string;
}

export function DifferenceTable({
  differences,
  request,
  names,
  metricLabel,
  unit,
  valuesText,
  baseLabel,
}: DifferenceTableProps) {
  const [skip, setSkip] = useState(0);
  const rows = differences.data;
  const page = useMemo(() => rows.slice(skip, skip + PAGE), [rows, skip]);
  const level = `${Math.round(differences.level * 1000) / 10}%`;
  const significant = rows.filter((r) => r.verdict === "significant").length;
  if (skip > 0 && skip >= rows.length) setSkip(0);

  const [busy, setBusy] = useState(false);
  const target = useMemo(() => differencesTarget(request), [request]);
  const download = (format: TableFileFormat, width: TableWidth = "column") => {
    setBusy(true);
    const name = `compare-${slug(metricLabel)}${width === "page" ? "-page" : ""}`;
    downloadDifferencesTable(request, format, name, width)
      .catch(handleError)
      .finally(() => setBusy(false));
  };

  return (
    <div className="card" data-testid="difference-table">
      <div className="section-header">
        <h3>
          Differences in {metricLabel} against {baseLabel}
        </h3>
        <div className="actions">
          <button type="button" disabled={busy} onClick={() => download("csv")}>
            CSV
          </button>
          <button
            type="button"
            disabled={busy}
            title="One column (3.5 in): base mean, difference ± interval, relative difference"
            onClick={() => download("tex")}
          >
            LaTeX
          </button>
          <button
            type="button"
            disabled={busy}
            title="Both columns (table*): both means, the interval's bounds"
            onClick={() => download("tex", "page")}
          >
            LaTeX, page width
          </button>
          {target && <AddToReport experimentId={target.experimentId} view={target.view} />}
        </div>
      </div>
      <p className="hint">
        {significant} of {rows.length} differences significant at {level} (Welch's t interval over
        repetition means; per-second samples are not independent, so they are not used).
        {differences.unmatched > 0 &&
          ` ${differences.unmatched} configurations have no counterpart in the base or no results.`}
      </p>
      {rows.length === 0 ? (
        <p className="hint">Nothing to compare: no configuration has results on both sides.</p>
      ) : (
        <div className="scroll">
          <table className="table compact">
            <thead>
              <tr>
                <th>experiment</th>
                <th>configuration</th>
                <th className="num">base ({unit})</th>
                <th className="num">compared ({unit})</th>
                <th className="num">
                  difference ({unit}) [{level} CI]
                </th>
                <th className="num">relative (%) [{level} CI]</th>
                <th>verdict</th>
              </tr>
            </thead>
            <tbody>
              {page.map((r) => (
                <tr
                  key={`${r.configuration_id}-${r.metric}`}
                  data-testid="difference-row"
                  data-verdict={r.verdict}
                >
                  <td>{experimentName(names, r.experiment_id)}</td>
                  <td>{valuesText(r.values)}</td>
                  <td className="num">
                    {formatNumber(r.base.mean)} ± {formatNumber(r.base.std)} (n={r.base.n})
                  </td>
                  <td className="num">
                    {formatNumber(r.other.mean)} ± {formatNumber(r.other.std)} (n={r.other.n})
                  </td>
                  <td className="num">
                    {formatNumber(r.difference)} {intervalText(r.low, r.high)}
                  </td>
                  <td className="num">
                    {formatNumber(r.relative_percent, 2)}{" "}
                    {intervalText(r.relative_low, r.relative_high)}
                  </td>
                  <td>
                    <span className={`verdict verdict-${r.verdict}`}>
                      {r.verdict === "significant" ? "✱ " : ""}
                      {VERDICT_TEXT[r.verdict]}
                    </span>
                    {(r.flagged_inputs ?? []).length > 0 && (
                      <span
                        className="badge badge-flag"
                        data-testid="flagged-inputs"
                        title={flaggedTitle(r)}
                      >
                        ⚑ flagged inputs
                      </span>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pager skip={skip} limit={PAGE} count={rows.length} onChange={setSkip} />
    </div>
  );
}

/** Which side of a difference carries quality flags (see the runs' and results' badges). */
function flaggedTitle(r: { flagged_inputs?: number[]; base_configuration_id: number }): string {
  const sides = (r.flagged_inputs ?? []).map((c) =>
    c === r.base_configuration_id ? "the base" : "the compared configuration",
  );
  return `quality flags on ${sides.join(" and ")}: check its runs before reading this difference`;
}
