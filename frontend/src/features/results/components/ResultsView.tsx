// Results of one experiment: throughput and response time vs a chosen factor, the summary table,
// percentiles, histograms and per-run time series.
import { useEffect, useMemo, useState } from "react";
import type { ParameterPublic, RequestType } from "@/api";
import { EmptyState } from "@/components/common/EmptyState";
import { handleError } from "@/components/common/handleError";
import { PendingBlock } from "@/components/common/PendingBlock";
import { formatValue } from "@/features/experiments/utils/format";
import { TableExportButtons } from "@/features/export/components/TableExportButtons";
import { slug } from "@/features/export/utils/download";
import { fieldErrors } from "@/lib/apiError";
import type { ResultSource, ResultWindow } from "@/lib/queryKeys";
import { useGetResultsQuery } from "../hooks/useGetResultsQuery";
import { axisTitle, factorNames, levelsOf, shapeSeries } from "../utils/series";
import { AnalysisPanel } from "./AnalysisPanel";
import { FactorSelect } from "./FactorSelect";
import { HistogramPanel } from "./HistogramPanel";
import { PercentilesPanel } from "./PercentilesPanel";
import { ResultSelectors } from "./ResultSelectors";
import { ResultsPlot } from "./ResultsPlot";
import { SummaryTable } from "./SummaryTable";
import { TimeSeriesPanel } from "./TimeSeriesPanel";
import { WindowPicker } from "./WindowPicker";

/** Props of ResultsView. */
export interface ResultsViewProps {
  experimentId: number;
  name: string;
  parameters: ParameterPublic[];
  poll: boolean;
}

export function ResultsView({ experimentId, name, parameters, poll }: ResultsViewProps) {
  const [source, setSource] = useState<ResultSource>("client");
  const [requestType, setRequestType] = useState<RequestType>("all");
  const [cut, setCut] = useState<ResultWindow>();
  const { results, isLoading, error } = useGetResultsQuery(
    experimentId,
    source,
    requestType,
    poll,
    cut,
  );
  // A bad window is the user's to fix at the inputs; anything else is a toast.
  const windowErrors = fieldErrors(error);
  const rows = results?.data ?? [];
  const factors = useMemo(() => factorNames(rows), [rows]);
  const [xChoice, setX] = useState("");
  const [lineChoice, setLine] = useState("");
  const [pins, setPins] = useState<Record<string, string>>({});
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
  const unit = (n: string) => parameters.find((p) => p.name === n)?.unit;
  const units = results?.units ?? {};
  const throughput = useMemo(
    () => shapeSeries(rows, { x, metric: "throughput", filters }),
    [rows, x, filters],
  );
  const responseTime = useMemo(
    () => shapeSeries(rows, { x, metric: "response_time", filters }),
    [rows, x, filters],
  );
  const measured = rows.some((r) => r.throughput_mean !== null);

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
          onSource={setSource}
          onRequestType={setRequestType}
        />
        {factors.length > 0 && (
          <FactorSelect label="x axis" factors={factors} value={x} onChange={setX} />
        )}
        {factors.length > 1 && (
          <FactorSelect
            label="one line per"
            factors={factors.filter((f) => f !== x)}
            value={line}
            onChange={setLine}
          />
        )}
        {Object.entries(filters).map(([f, level]) => (
          <label key={f}>
            {f} =
            <select value={level} onChange={(e) => setPins((p) => ({ ...p, [f]: e.target.value }))}>
              {levelsOf(rows, f).map((v) => (
                <option key={formatValue(v)}>{formatValue(v)}</option>
              ))}
            </select>
          </label>
        ))}
        <WindowPicker value={cut} errors={windowErrors} onChange={setCut} />
      </div>
      {!measured ? (
        <EmptyState title="No results yet">
          <p>Results appear here as runs finish.</p>
        </EmptyState>
      ) : (
        <>
          <div className="figures">
            <ResultsPlot
              title="Throughput"
              series={throughput}
              xTitle={axisTitle(x, unit(x))}
              yTitle={axisTitle("throughput", units.throughput)}
              filename={`${slug(name)}-throughput-${source}-${requestType}`}
            />
            <ResultsPlot
              title="Response time"
              series={responseTime}
              xTitle={axisTitle(x, unit(x))}
              yTitle={axisTitle("response time", units.response_time)}
              filename={`${slug(name)}-response-time-${source}-${requestType}`}
            />
          </div>
          <div className="section-header">
            <h3>Summary (mean ± std over repetitions)</h3>
            <TableExportButtons
              name={`${name}-${source}-${requestType}`}
              rows={rows}
              factors={factors}
              units={units}
            />
          </div>
          <SummaryTable rows={rows} factors={factors} units={units} />
          <div className="figures">
            <PercentilesPanel
              experimentId={experimentId}
              name={name}
              source={source}
              requestType={requestType}
              x={x}
              xTitle={axisTitle(x, unit(x))}
              filters={filters}
              line={line}
              lineLevels={levelsOf(rows, line).map(formatValue)}
            />
            <HistogramPanel
              experimentId={experimentId}
              name={name}
              source={source}
              requestType={requestType}
              configurations={rows}
            />
          </div>
          <TimeSeriesPanel
            experimentId={experimentId}
            name={name}
            source={source}
            requestType={requestType}
            configurations={rows}
            cut={cut}
            poll={poll}
          />
          <AnalysisPanel
            experimentId={experimentId}
            name={name}
            source={source}
            requestType={requestType}
            twoLevel={factors.length >= 2 && factors.every((f) => levelsOf(rows, f).length === 2)}
          />
        </>
      )}
    </section>
  );
}
