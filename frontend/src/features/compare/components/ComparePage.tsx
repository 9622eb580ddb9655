// Compare: pick two or more experiments and overlay their result curves on a shared factor.
import { useEffect, useMemo, useState } from "react";
import type { RequestType, ResultsPublic } from "@/api";
import { EmptyState } from "@/components/common/EmptyState";
import { handleError } from "@/components/common/handleError";
import { PendingBlock } from "@/components/common/PendingBlock";
import { useGetExperimentsQuery } from "@/features/experiments/hooks/useGetExperimentsQuery";
import { useGetParametersQuery } from "@/features/experiments/hooks/useGetParametersQuery";
import { FactorSelect } from "@/features/results/components/FactorSelect";
import { ResultSelectors } from "@/features/results/components/ResultSelectors";
import { ResultsPlot } from "@/features/results/components/ResultsPlot";
import { useGetManyResultsQuery } from "@/features/results/hooks/useGetResultsQuery";
import { axisTitle } from "@/features/results/utils/series";
import type { ResultSource } from "@/lib/queryKeys";
import { commonFactors, compareSeries } from "../utils/compareSeries";

export function ComparePage() {
  const { experiments, isLoading } = useGetExperimentsQuery({ skip: 0, limit: 200 });
  const { parameters } = useGetParametersQuery();
  const [selected, setSelected] = useState<number[]>([]);
  const [source, setSource] = useState<ResultSource>("client");
  const [requestType, setRequestType] = useState<RequestType>("all");
  const [xChoice, setX] = useState("");
  const many = useGetManyResultsQuery(selected, source, requestType);
  useEffect(() => {
    if (many.error) handleError(many.error);
  }, [many.error]);

  const loaded = useMemo(
    () =>
      selected.flatMap((id, i) => {
        const results = many.results[i];
        const name = experiments?.data.find((e) => e.id === id)?.name ?? `#${id}`;
        return results ? [{ name, results }] : [];
      }),
    [selected, many.results, experiments],
  );
  const factors = useMemo(
    () => commonFactors(loaded.map((l) => l.results as ResultsPublic)),
    [loaded],
  );
  const x = factors.includes(xChoice) ? xChoice : (factors[0] ?? "");
  const throughput = useMemo(() => compareSeries(loaded, x, "throughput"), [loaded, x]);
  const responseTime = useMemo(() => compareSeries(loaded, x, "response_time"), [loaded, x]);
  const units = loaded[0]?.results.units ?? {};
  const unit = parameters?.find((p) => p.name === x)?.unit;
  const toggle = (id: number) =>
    setSelected((s) => (s.includes(id) ? s.filter((v) => v !== id) : [...s, id]));

  if (isLoading) return <PendingBlock label="Loading experiments" />;
  return (
    <section>
      <div className="page-header">
        <h1>Compare experiments</h1>
      </div>
      <div className="columns">
        <aside className="side-column card">
          <h2>Experiments</h2>
          {experiments?.data.length ? (
            <ul className="checklist">
              {experiments.data.map((e) => (
                <li key={e.id}>
                  <label>
                    <input
                      type="checkbox"
                      checked={selected.includes(e.id)}
                      onChange={() => toggle(e.id)}
                    />
                    {e.name}
                  </label>
                </li>
              ))}
            </ul>
          ) : (
            <p className="hint">No experiments yet.</p>
          )}
        </aside>
        <div className="main-column">
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
          </div>
          {selected.length < 2 ? (
            <EmptyState title="Pick two or more experiments">
              <p>Their curves are overlaid on a factor they share.</p>
            </EmptyState>
          ) : many.isLoading ? (
            <PendingBlock label="Loading results" />
          ) : factors.length === 0 ? (
            <EmptyState title="No shared factor">
              <p>The selected experiments vary no common parameter, or have no results yet.</p>
            </EmptyState>
          ) : (
            <div className="figures">
              <ResultsPlot
                title="Throughput"
                series={throughput}
                xTitle={axisTitle(x, unit)}
                yTitle={axisTitle("throughput", units.throughput)}
                filename={`compare-throughput-${source}-${requestType}`}
              />
              <ResultsPlot
                title="Response time"
                series={responseTime}
                xTitle={axisTitle(x, unit)}
                yTitle={axisTitle("response time", units.response_time)}
                filename={`compare-response-time-${source}-${requestType}`}
              />
            </div>
          )}
        </div>
      </div>
    </section>
  );
}
