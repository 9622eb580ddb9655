// Compare: experiments (or configurations across them) against a base, with the parameters
// that differ, statistically honest differences, grouped curves with bands, parallel
// coordinates and saved views. Everything that decides the view lives in the URL.
import { useEffect, useMemo, useState } from "react";
import type {
  CompareSelection,
  ConfigurationsRequest,
  DifferencesRequest,
  GroupsRequest,
} from "@/api";
import { EmptyState } from "@/components/common/EmptyState";
import { handleError } from "@/components/common/handleError";
import { PendingBlock } from "@/components/common/PendingBlock";
import { useGetExperimentsQuery } from "@/features/experiments/hooks/useGetExperimentsQuery";
import { useGetMetricsQuery } from "@/features/experiments/hooks/useGetMetricsQuery";
import { useMetricLabels } from "@/features/experiments/hooks/useMetricLabels";
import { useParameterLabels } from "@/features/experiments/hooks/useParameterLabels";
import { displayUnit } from "@/lib/labels";
import { useCompareState } from "../hooks/useCompareState";
import { useGetCompareConfigurationsQuery } from "../hooks/useGetCompareConfigurationsQuery";
import { useGetCompareParametersQuery } from "../hooks/useGetCompareParametersQuery";
import { useGetDifferencesQuery } from "../hooks/useGetDifferencesQuery";
import { useGetGroupsQuery } from "../hooks/useGetGroupsQuery";
import {
  type CompareMetric,
  effectiveBase,
  effectiveMetric,
  GROUP_BY_EXPERIMENT,
  offeredMetrics,
} from "../utils/compareState";
import { CompareToolbar } from "./CompareToolbar";
import { ConfigurationTable } from "./ConfigurationTable";
import { DifferenceTable } from "./DifferenceTable";
import { ExperimentPicker } from "./ExperimentPicker";
import { GroupedCurves } from "./GroupedCurves";
import { ParallelCoordinates } from "./ParallelCoordinates";
import {
  type BrushRanges,
  brushedIds,
  measuredRows,
  parcoordsAxes,
} from "./ParallelCoordinates.utils";
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
  const [brush, setBrush] = useState<BrushRanges>({});

  const names = useMemo(
    () => new Map((experiments?.data ?? []).map((e) => [e.id, e.name])),
    [experiments],
  );
  const selection: CompareSelection | null = useMemo(
    () =>
      state.experiments.length
        ? {
            experiment_ids: state.experiments,
            source: state.source,
            request_type: state.requestType,
            // The comparison API cuts whole seconds: widen a fractional window to them.
            window_start_s: state.window ? Math.floor(state.window.start) : null,
            window_end_s: state.window ? Math.ceil(state.window.end) : null,
          }
        : null,
    [state.experiments, state.source, state.requestType, state.window],
  );
  const params = useGetCompareParametersQuery(selection);
  // The overview metrics plus the chosen one (parallel coordinates are coloured by it).
  const configsRequest: ConfigurationsRequest | null = useMemo(
    () =>
      selection && metric
        ? {
            ...selection,
            metrics: [...new Set<CompareMetric>(["throughput_per_s", "response_time_us", metric])],
          }
        : null,
    [selection, metric],
  );
  const configs = useGetCompareConfigurationsQuery(configsRequest);
  const groupable = params.parameters?.groupable ?? [];
  const x =
    state.x && groupable.includes(state.x)
      ? state.x
      : (groupable.find((g) => g !== state.group) ?? groupable[0] ?? "");

  const table = configs.configurations;
  const rows = useMemo(() => (table ? measuredRows(table) : []), [table]);
  const axes = useMemo(
    () =>
      table ? parcoordsAxes(table, rows, names, { parameters: labels, metrics: metricLabels }) : [],
    [table, rows, names, labels, metricLabels],
  );
  const brushed = useMemo(() => brushedIds(rows, axes, brush), [rows, axes, brush]);
  const shownRows = useMemo(
    () => (brushed ? rows.filter((r) => brushed.has(r.configuration_id)) : rows),
    [rows, brushed],
  );
  const only = useMemo(() => (brushed ? [...brushed] : null), [brushed]);

  const byConfiguration = state.configurations.length >= 2;
  const baseConfiguration =
    state.baseConfiguration !== null && state.configurations.includes(state.baseConfiguration)
      ? state.baseConfiguration
      : (state.configurations[0] ?? null);
  const base = effectiveBase(state);
  const diffRequest: DifferencesRequest | null = useMemo(() => {
    if (!selection || !metric) return null;
    const common = { ...selection, metrics: [metric], only_configuration_ids: only };
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
    only,
  ]);
  const groupsRequest: GroupsRequest | null = useMemo(
    () =>
      selection && x && metric
        ? {
            ...selection,
            x,
            group_by: state.group,
            metric,
            band: state.band,
            only_configuration_ids: only,
          }
        : null,
    [selection, x, state.group, metric, state.band, only],
  );
  const diffs = useGetDifferencesQuery(diffRequest);
  const groups = useGetGroupsQuery(groupsRequest);

  const error = metricsError ?? params.error ?? configs.error ?? diffs.error ?? groups.error;
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
              setBrush({});
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
                  names={names}
                  metricLabel={metricLabel}
                  unit={displayUnit(diffs.differences.units[shownMetric]) ?? ""}
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
              {groups.groups && (
                <GroupedCurves
                  groups={groups.groups}
                  metricLabel={metricLabels.label(groups.groups.metric)}
                  xLabel={labels.label(groups.groups.x)}
                  groupLabel={
                    groups.groups.group_by === GROUP_BY_EXPERIMENT
                      ? "experiment"
                      : labels.label(groups.groups.group_by)
                  }
                />
              )}
              {table && axes.length > 1 && rows.length > 0 && (
                <ParallelCoordinates
                  table={table}
                  rows={rows}
                  axes={axes}
                  ranges={brush}
                  colourBy={shownMetric}
                  selected={brushed ? brushed.size : null}
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
