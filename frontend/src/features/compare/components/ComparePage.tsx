// Compare: experiments (or configurations across them) against a base, with the parameters
// that differ, statistically honest differences, grouped curves with bands, parallel
// coordinates and saved views. Everything that decides the view lives in the URL.
import { useCallback, useEffect, useMemo } from "react";
import type { CompareSelection, ConfigurationsRequest, DifferencesRequest } from "@/api";
import { EmptyState } from "@/components/common/EmptyState";
import { handleError } from "@/components/common/handleError";
import { PendingBlock } from "@/components/common/PendingBlock";
import { ServerPlot } from "@/features/export";
import { useGetExperimentsQuery } from "@/lib/hooks/useGetExperimentsQuery";
import { useGetMetricsQuery } from "@/lib/hooks/useGetMetricsQuery";
import { useMetricLabels } from "@/lib/hooks/useMetricLabels";
import { useParameterLabels } from "@/lib/hooks/useParameterLabels";
import { displayUnit } from "@/lib/labels";
import type { CompareFigure } from "@/lib/serverFigure";
import { useCompareState } from "../hooks/useCompareState";
import { useGetCompareConfigurationsQuery } from "../hooks/useGetCompareConfigurationsQuery";
import { useGetCompareParametersQuery } from "../hooks/useGetCompareParametersQuery";
import { useGetDifferencesQuery } from "../hooks/useGetDifferencesQuery";
import {
  type CompareMetric,
  effectiveBase,
  effectiveMetric,
  GROUP_BY_EXPERIMENT,
  groupedCurvesTitle,
  isMonitorSource,
  offeredMetrics,
  selectedRole,
  tableMetrics,
} from "../utils/compareState";
import { CompareToolbar } from "./CompareToolbar";
import { ConfigurationTable } from "./ConfigurationTable";
import { DifferenceTable } from "./DifferenceTable";
import { ExperimentPicker } from "./ExperimentPicker";
import { ParallelCoordinates } from "./ParallelCoordinates";
import type { BrushRanges } from "./ParallelCoordinates.utils";
import { ParametersTable } from "./ParametersTable";
import { SavedViews } from "./SavedViews";

export function ComparePage() {
  const [state, setState] = useCompareState();
  const { experiments, isLoading } = useGetExperimentsQuery({ skip: 0, limit: 200 });
  const labels = useParameterLabels();
  const metricLabels = useMetricLabels();
  const { metrics: served, error: metricsError } = useGetMetricsQuery();
  // Every metric of the metric table the chosen side reports; nothing is asked for before
  // the table is known.
  const offered = useMemo(() => offeredMetrics(served, state.source), [served, state.source]);
  const metric: CompareMetric | null = served ? effectiveMetric(state.metric, offered) : null;
  // The brush is URL state (compareState: it lapses with the selection it was dragged on);
  // by its text, so that an unchanged brush is the same object on every render.
  const brushText = JSON.stringify(state.brush ?? {});
  const brush = useMemo(() => JSON.parse(brushText) as BrushRanges, [brushText]);
  const setBrush = useCallback(
    (ranges: BrushRanges) => setState({ brush: Object.keys(ranges).length > 0 ? ranges : null }),
    [setState],
  );
  const brushBody = Object.keys(brush).length > 0 ? brush : null;

  const names = useMemo(
    () => new Map((experiments?.data ?? []).map((e) => [e.id, e.name])),
    [experiments],
  );
  const role = selectedRole(state);
  const selection: CompareSelection | null = useMemo(
    () =>
      state.experiments.length
        ? {
            experiment_ids: state.experiments,
            source: state.source,
            role,
            request_type: isMonitorSource(state.source) ? "all" : state.requestType,
            // The comparison API cuts whole seconds: widen a fractional window to them.
            window_start_s: state.window ? Math.floor(state.window.start) : null,
            window_end_s: state.window ? Math.ceil(state.window.end) : null,
          }
        : null,
    [state.experiments, state.source, role, state.requestType, state.window],
  );
  const params = useGetCompareParametersQuery(selection);
  // The overview metrics plus the chosen one (parallel coordinates are coloured by it).
  const configsRequest: ConfigurationsRequest | null = useMemo(
    () =>
      selection && metric
        ? {
            ...selection,
            metrics: tableMetrics(metric, offered),
            brush: brushBody,
          }
        : null,
    [selection, metric, offered, brushBody],
  );
  const configs = useGetCompareConfigurationsQuery(configsRequest);
  const groupable = params.parameters?.groupable ?? [];
  const x =
    state.x && groupable.includes(state.x)
      ? state.x
      : (groupable.find((g) => g !== state.group) ?? groupable[0] ?? "");

  const table = configs.configurations;
  const rows = table?.data ?? [];
  // The server resolves the brush: the list shows the configurations it marks as inside.
  const shownRows = useMemo(() => (table ? table.data.filter((r) => r.brushed) : []), [table]);

  const byConfiguration = state.configurations.length >= 2;
  const baseConfiguration =
    state.baseConfiguration !== null && state.configurations.includes(state.baseConfiguration)
      ? state.baseConfiguration
      : (state.configurations[0] ?? null);
  const base = effectiveBase(state);
  const diffRequest: DifferencesRequest | null = useMemo(() => {
    if (!selection || !metric) return null;
    const common = { ...selection, metrics: [metric], brush: brushBody };
    if (byConfiguration)
      return {
        ...common,
        configuration_ids: state.configurations,
        base_configuration_id: baseConfiguration,
      };
    return state.experiments.length >= 2 ? { ...common, base_experiment_id: base } : null;
  }, [
    selection,
    metric,
    state.configurations,
    state.experiments.length,
    byConfiguration,
    baseConfiguration,
    base,
    brushBody,
  ]);
  // The page's figures, drawn by the server from the same selection (and brush).
  const groupsFigure: CompareFigure | null = useMemo(
    () =>
      selection && x && metric
        ? {
            name: "compare-groups",
            body: {
              ...selection,
              x,
              group_by: state.group,
              metric,
              band: state.band,
              brush: brushBody,
            },
          }
        : null,
    [selection, x, state.group, metric, state.band, brushBody],
  );
  const parcoordsFigure: CompareFigure | null = useMemo(
    () =>
      selection && metric ? { name: "compare-parcoords", body: { ...selection, metric } } : null,
    [selection, metric],
  );
  const diffs = useGetDifferencesQuery(diffRequest);

  const error = metricsError ?? params.error ?? configs.error ?? diffs.error;
  useEffect(() => {
    if (error) handleError(error);
  }, [error]);

  const baseLabel = useMemo(() => {
    if (!byConfiguration) return names.get(base ?? -1) ?? "the base";
    const row = rows.find((r) => r.configuration_id === baseConfiguration);
    return row
      ? `${names.get(row.experiment_id) ?? ""} (${labels.values(row.values)})`
      : "the base configuration";
  }, [byConfiguration, names, base, rows, baseConfiguration, labels]);

  if (isLoading) return <PendingBlock label="Loading experiments" />;
  const shownMetric = metric ?? "throughput_per_s";
  const metricLabel = metricLabels.label(shownMetric);
  return (
    <section>
      <div className="page-header">
        <h1>Compare experiments</h1>
      </div>
      <div className="columns">
        <aside className="side-column compare-side card">
          <h2>Experiments</h2>
          <ExperimentPicker
            experiments={experiments?.data ?? []}
            selected={state.experiments}
            base={base}
            onChange={(selected, b) => {
              setState({
                experiments: selected,
                base: b,
                configurations: [],
                baseConfiguration: null,
              });
            }}
          />
          <SavedViews state={{ ...state, x: x || null, metric: shownMetric }} />
        </aside>
        <div className="main-column">
          <CompareToolbar
            state={state}
            metrics={offered}
            metric={shownMetric}
            x={x}
            groupable={groupable}
            labelOf={labels.label}
            onChange={setState}
          />
          {state.experiments.length === 0 ? (
            <EmptyState title="Pick experiments to compare">
              <p>
                Tick two or more experiments and choose the base; or pick configurations across them
                in the configuration list.
              </p>
            </EmptyState>
          ) : (
            <>
              {params.parameters && (
                <ParametersTable
                  parameters={params.parameters}
                  onlyDifferences={state.onlyDifferences}
                  onOnlyDifferences={(onlyDifferences) => setState({ onlyDifferences })}
                />
              )}
              {diffs.differences ? (
                <DifferenceTable
                  differences={diffs.differences}
                  request={diffRequest ?? { experiment_ids: [] }}
                  names={names}
                  // The table's own metric: while a new one loads, heading and units stay those
                  // of the rows shown.
                  metricLabel={metricLabels.label(Object.keys(diffs.differences.units)[0] ?? "")}
                  unit={displayUnit(Object.values(diffs.differences.units)[0]) ?? ""}
                  valuesText={labels.values}
                  baseLabel={baseLabel}
                />
              ) : diffRequest === null ? (
                <p className="hint card">
                  Pick a second experiment (or two configurations) to see differences.
                </p>
              ) : (
                <PendingBlock label="Loading differences" />
              )}
              {groupsFigure && (
                <ServerPlot
                  title={groupedCurvesTitle(
                    metricLabel,
                    state.group === GROUP_BY_EXPERIMENT ? "experiment" : labels.label(state.group),
                    state.band,
                  )}
                  figure={groupsFigure}
                  filename={`compare-${shownMetric}-by-${state.group}`}
                  testId="grouped-curves"
                />
              )}
              {parcoordsFigure && rows.length > 0 && (
                <ParallelCoordinates
                  figure={parcoordsFigure}
                  ranges={brush}
                  brushed={brushBody ? (table?.brushed ?? null) : null}
                  onBrush={setBrush}
                />
              )}
              {table && (
                <ConfigurationTable
                  table={table}
                  rows={shownRows}
                  names={names}
                  chosen={state.configurations}
                  base={baseConfiguration}
                  onChosen={(configurations, b) =>
                    setState({ configurations, baseConfiguration: b })
                  }
                  labels={labels}
                  metricLabels={metricLabels}
                />
              )}
            </>
          )}
        </div>
      </div>
    </section>
  );
}
