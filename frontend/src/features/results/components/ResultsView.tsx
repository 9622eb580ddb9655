// Results of one experiment: throughput and response time vs a chosen factor, the summary table,
// percentiles, histograms and per-run time series.
import { useEffect, useMemo } from "react";
import { EmptyState } from "@/components/common/EmptyState";
import { handleError } from "@/components/common/handleError";
import { PendingBlock } from "@/components/common/PendingBlock";
import { ServerPlot, TableExportButtons } from "@/features/export";
import { useGetExperimentQualityQuery } from "@/features/quality";
import { fieldErrors } from "@/lib/apiError";
import { slug } from "@/lib/download";
import { formatValue } from "@/lib/format";
import { useParameterLabels } from "@/lib/hooks/useParameterLabels";
import { windowQuery } from "@/lib/queryKeys";
import { pinParams } from "@/lib/serverFigure";
import { useResultsViewState } from "@/lib/urlState/results";
import { useResultsSelection } from "@/lib/urlState/resultsSelection";
import { useGetResultsQuery } from "../hooks/useGetResultsQuery";
import { emptyResults } from "../utils/emptyResults";
import { factorNames, levelsOf } from "../utils/series";
import { AnalysisPanel } from "./AnalysisPanel";
import { FactorSelect } from "./FactorSelect";
import { HistogramPanel } from "./HistogramPanel";
import { MachinesTable } from "./MachinesTable";
import { PercentilesPanel } from "./PercentilesPanel";
import { PlotOptions } from "./PlotOptions";
import { ResultSelectors } from "./ResultSelectors";
import { SummaryTable } from "./SummaryTable";
import { TimeSeriesPanel } from "./TimeSeriesPanel";
import { WindowPicker } from "./WindowPicker";

/** Props of ResultsView. */
export interface ResultsViewProps {
  /** The experiment's runs by status: what an empty view says depends on them. */
  runCounts: Record<string, number>;
}

export function ResultsView({ runCounts }: ResultsViewProps) {
  const { experimentId, name, poll, source, requestType, cut } = useResultsSelection();
  const [view, setView] = useResultsViewState();
  const labels = useParameterLabels();
  const { results, isLoading, error } = useGetResultsQuery(
    experimentId,
    source,
    requestType,
    poll,
    cut,
  );
  const { quality } = useGetExperimentQualityQuery(experimentId, cut, poll);
  // A bad window is the user's to fix at the inputs; anything else is a toast.
  const windowErrors = fieldErrors(error);
  const rows = results?.data ?? [];
  const factors = useMemo(() => factorNames(rows), [rows]);
  const { x: xChoice, line: lineChoice, fix: pins } = view;
  const hasWindowError = Object.keys(windowErrors).length > 0;
  useEffect(() => {
    if (error && !hasWindowError) handleError(error);
  }, [error, hasWindowError]);

  const x = factors.includes(xChoice) ? xChoice : (factors[0] ?? "");
  const line =
    factors.includes(lineChoice) && lineChoice !== x
      ? lineChoice
      : (factors.find((f) => f !== x) ?? "");
  // Every factor besides x and the line factor is pinned to one level (the first, unless chosen).
  const filters = useMemo(() => {
    const out: Record<string, string> = {};
    for (const f of factors) {
      if (f === x || f === line) continue;
      out[f] = pins[f] ?? formatValue(levelsOf(rows, f)[0]);
    }
    return out;
  }, [factors, x, line, pins, rows]);
  const measured = rows.some((r) => r.metrics.throughput_per_s.mean !== null);
  const empty = emptyResults(runCounts, requestType);
  // The page's selection as the server's figure parameters: the server draws every figure.
  const figureParams = useMemo(
    () => ({
      source,
      request_type: requestType,
      x,
      series: line,
      pin: pinParams(filters),
      band: view.band,
      log_x: view.logx,
      log_y: view.logy,
      ...windowQuery(cut),
    }),
    [source, requestType, x, line, filters, cut, view.band, view.logx, view.logy],
  );

  if (isLoading && !cut) return <PendingBlock label="Loading results" />;
  return (
    <section className="card" data-testid="results-view">
      <div className="section-header">
        <h2>Results</h2>
      </div>
      <div className="toolbar">
        <ResultSelectors
          source={source}
          requestType={requestType}
          onSource={(v) => setView({ source: v })}
          onRequestType={(v) => setView({ type: v })}
        />
        {factors.length > 0 && (
          <FactorSelect
            label="x axis"
            factors={factors}
            value={x}
            labelOf={labels.title}
            onChange={(v) => setView({ x: v })}
          />
        )}
        {factors.length > 1 && (
          <FactorSelect
            label="one line per"
            factors={factors.filter((f) => f !== x)}
            value={line}
            labelOf={labels.title}
            onChange={(v) => setView({ line: v })}
          />
        )}
        {Object.entries(filters).map(([f, level]) => (
          <label key={f}>
            {labels.title(f)} =
            <select
              name={`fix-${f}`}
              value={level}
              onChange={(e) => setView({ fix: { ...pins, [f]: e.target.value } })}
            >
              {levelsOf(rows, f).map((v) => (
                <option key={formatValue(v)}>{formatValue(v)}</option>
              ))}
            </select>
          </label>
        ))}
        <WindowPicker
          key={cut ? `${cut.start}-${cut.end}` : "stored"}
          value={cut ?? undefined}
          errors={windowErrors}
          onChange={(w) => setView({ window: w ?? null })}
        />
        <PlotOptions />
      </div>
      {!measured ? (
        <EmptyState title={empty.title}>
          <p>{empty.text}</p>
        </EmptyState>
      ) : (
        <>
          <div className="figures">
            <ServerPlot
              title="Throughput"
              figure={{ experimentId, name: "throughput", params: figureParams }}
              filename={`${slug(name)}-throughput-${source}-${requestType}`}
              poll={poll}
            />
            <ServerPlot
              title="Response time"
              figure={{ experimentId, name: "response-time", params: figureParams }}
              filename={`${slug(name)}-response-time-${source}-${requestType}`}
              poll={poll}
            />
          </div>
          <div className="section-header">
            <h3>Summary (mean ± std over repetitions)</h3>
            <TableExportButtons
              table={{
                experimentId,
                name: "summary",
                params: { source, request_type: requestType, ...windowQuery(cut) },
              }}
              filename={`${slug(name)}-summary-${source}-${requestType}`}
            />
          </div>
          <SummaryTable rows={rows} factors={factors} quality={quality} />
          <div className="figures">
            <PercentilesPanel
              x={x}
              filters={filters}
              line={line}
              lineLabel={labels.label(line)}
              lineLevels={levelsOf(rows, line).map(formatValue)}
            />
            <HistogramPanel configurations={rows} />
          </div>
          <TimeSeriesPanel configurations={rows} />
          <AnalysisPanel
            twoLevel={factors.length >= 2 && factors.every((f) => levelsOf(rows, f).length === 2)}
          />
          <MachinesTable />
        </>
      )}
    </section>
  );
}
