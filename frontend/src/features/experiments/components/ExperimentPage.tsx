// One experiment: what it is and how far it got at the top (summary, progress, live figures),
// then one tab at a time: results, runs, configurations, models, report.
import { useEffect } from "react";
import { Link, useParams } from "react-router";
import { EmptyState } from "@/components/common/EmptyState";
import { handleError } from "@/components/common/handleError";
import { PendingBlock } from "@/components/common/PendingBlock";
import { StatusBadge } from "@/components/common/StatusBadge";
import { TableExportButtons } from "@/features/export";
import { ExperimentModelsView } from "@/features/models";
import { ReportView } from "@/features/report";
import { ResultsView } from "@/features/results";
import { LiveProgress, RunsPanel, useRefreshWhenRunsFinish } from "@/features/runs";
import { SloSearchPanel } from "@/features/slo";
import { slug } from "@/lib/download";
import { runProgress } from "@/lib/format";
import { useGetConfigurationsQuery } from "@/lib/hooks/useGetConfigurationsQuery";
import { isActive, useGetExperimentQuery } from "@/lib/hooks/useGetExperimentQuery";
import { useMetricLabels } from "@/lib/hooks/useMetricLabels";
import { useParameterLabels } from "@/lib/hooks/useParameterLabels";
import { ResultsSelectionProvider } from "@/lib/urlState/resultsSelection";
import { defaultTab } from "../urlState";
import { describeRule } from "../utils/repetitionRule";
import { ConfigurationsTable } from "./ConfigurationsTable";
import { ExperimentActions } from "./ExperimentActions";
import { ExperimentProgress } from "./ExperimentProgress";
import { ExperimentTabs } from "./ExperimentTabs";
import { ExperimentTiming } from "./ExperimentTiming";

export function ExperimentPage() {
  const id = Number(useParams().experimentId);
  const { experiment, isLoading, error } = useGetExperimentQuery(id);
  const { configurations } = useGetConfigurationsQuery(id);
  const labels = useParameterLabels();
  const metrics = useMetricLabels();
  useEffect(() => {
    if (error) handleError(error);
  }, [error]);
  useRefreshWhenRunsFinish(id, experiment?.run_counts ?? {});

  if (isLoading) return <PendingBlock label="Loading experiment" rows={6} />;
  if (!experiment) {
    return (
      <EmptyState title="Experiment not found">
        <Link to="/experiments">Back to experiments</Link>
      </EmptyState>
    );
  }
  const active = isActive(experiment.status);
  const { done, total } = runProgress(experiment.run_counts);
  const fixed = Object.entries(experiment.fixed ?? {});

  return (
    <section>
      <div className="page-header">
        <h1>
          {experiment.name} <StatusBadge status={experiment.status} />
        </h1>
        <ExperimentActions experiment={experiment} />
      </div>
      {experiment.description && <p className="hint">{experiment.description}</p>}
      {experiment.provenance && (
        <p className="hint" data-testid="provenance">
          Imported from {String(experiment.provenance.source)} on{" "}
          {new Date(String(experiment.provenance.imported_at)).toLocaleDateString()}: its runs were
          made elsewhere, so it cannot be started here (Duplicate runs its design on a testbed).
        </p>
      )}
      <dl className="stats inline" data-testid="experiment-summary">
        <dt>Configurations</dt>
        <dd>{experiment.preview.configurations}</dd>
        <dt>Runs done</dt>
        <dd>
          {done} / {total || experiment.preview.runs}
        </dd>
        <dt>Repetitions</dt>
        <dd data-testid="repetitions">
          {experiment.repetition_rule
            ? `${experiment.repetition_rule.min_repetitions} or more, ${describeRule(experiment.repetition_rule, metrics.label)}${experiment.preview.rule_range?.together ? "; the configurations stop together (a factorial design)" : ""}`
            : experiment.repetitions}
        </dd>
        <dt>Run window</dt>
        <dd>
          {experiment.preview.stable_window
            ? `${experiment.preview.stable_window.start_s}–${experiment.preview.stable_window.end_s} s of ${experiment.run_time_s} s`
            : `nothing measured of ${experiment.run_time_s} s`}
        </dd>
        <ExperimentTiming preview={experiment.preview} elapsed={experiment.elapsed} />
      </dl>
      {fixed.length > 0 && (
        <p className="hint">Fixed: {fixed.map(([k, v]) => labels.text(k, v)).join(", ")}</p>
      )}
      <ExperimentProgress
        counts={experiment.run_counts}
        planned={experiment.preview.runs}
        unsent={experiment.runs_unsent}
      />
      <LiveProgress experimentId={id} active={active} />
      {experiment.slo_search && <SloSearchPanel experimentId={id} active={active} />}
      {/* The results selection every results view reads (useResultsSelection). */}
      <ResultsSelectionProvider experimentId={id} name={experiment.name} poll={active}>
        <ExperimentTabs
          fallback={defaultTab(experiment.run_counts)}
          counts={{ configurations: experiment.preview.configurations, runs: total }}
          panels={{
            results: <ResultsView runCounts={experiment.run_counts} />,
            runs: (
              <RunsPanel
                experimentId={id}
                active={active}
                configurations={configurations?.data ?? []}
              />
            ),
            configurations: (
              <section className="card">
                <div className="section-header">
                  <h2>Configurations</h2>
                  <TableExportButtons
                    table={{ experimentId: id, name: "configuration", params: {} }}
                    filename={`${slug(experiment.name)}-configuration`}
                    testId="configuration-table-exports"
                  />
                </div>
                {configurations ? (
                  <ConfigurationsTable configurations={configurations.data} />
                ) : (
                  <PendingBlock label="Loading configurations" />
                )}
              </section>
            ),
            models: <ExperimentModelsView />,
            report: <ReportView experimentId={id} name={experiment.name} />,
          }}
        />
      </ResultsSelectionProvider>
    </section>
  );
}
