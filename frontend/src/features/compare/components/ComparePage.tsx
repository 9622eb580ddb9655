// Compare: experiments (or configurations across them) against a base, with the parameters
// that differ, statistically honest differences, grouped curves with bands, parallel
// coordinates and saved views. Everything that decides the view lives in the URL.
import { useEffect, useMemo, useState } from "react";
import type { CompareSelection, DifferencesRequest, GroupsRequest } from "@/api";
import { EmptyState } from "@/components/common/EmptyState";
import { handleError } from "@/components/common/handleError";
import { PendingBlock } from "@/components/common/PendingBlock";
import { useGetExperimentsQuery } from "@/features/experiments/hooks/useGetExperimentsQuery";
import { useGetParametersQuery } from "@/features/experiments/hooks/useGetParametersQuery";
import { parameterLabels } from "@/lib/labels";
import { useCompareState } from "../hooks/useCompareState";
import { useGetCompareConfigurationsQuery } from "../hooks/useGetCompareConfigurationsQuery";
import { useGetCompareParametersQuery } from "../hooks/useGetCompareParametersQuery";
import { useGetDifferencesQuery } from "../hooks/useGetDifferencesQuery";
import { useGetGroupsQuery } from "../hooks/useGetGroupsQuery";
import { effectiveBase } from "../utils/compareState";
import { CompareToolbar, METRIC_LABELS } from "./CompareToolbar";
import { ConfigurationTable } from "./ConfigurationTable";
import { DifferenceTable } from "./DifferenceTable";
import { valuesLabel } from "./DifferenceTable.utils";
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
  const { parameters: declared } = useGetParametersQuery();
  const labels = useMemo(() => parameterLabels(declared), [declared]);
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
  const configs = useGetCompareConfigurationsQuery(selection);
  const groupable = params.parameters?.groupable ?? [];
  const x =
    state.x && groupable.includes(state.x)
      ? state.x
      : (groupable.find((g) => g !== state.group) ?? groupable[0] ?? "");

  const table = configs.configurations;
  const rows = useMemo(() => (table ? measuredRows(table) : []), [table]);
  const axes = useMemo(
    () => (table ? parcoordsAxes(table, rows, names, labels) : []),
    [table, rows, names, labels],
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
    if (!selection) return null;
    const common = { ...selection, metrics: [state.metric], only_configuration_ids: only };
    if (byConfiguration)
      return {
        ...common,
        configuration_ids: state.configurations,
        base_configuration_id: baseConfiguration,
      };
    return state.experiments.length >= 2 ? { ...common, base_experiment_id: base } : null;
  }, [
    selection,
    state.metric,
    state.configurations,
    state.experiments.length,
    byConfiguration,
    baseConfiguration,
    base,
    only,
  ]);
  const groupsRequest: GroupsRequest | null = useMemo(
    () =>
      selection && x
        ? {
            ...selection,
            x,
            group_by: state.group,
            metric: state.metric,
            band: state.band,
            only_configuration_ids: only,
          }
        : null,
    [selection, x, state.group, state.metric, state.band, only],
  );
  const diffs = useGetDifferencesQuery(diffRequest);
  const groups = useGetGroupsQuery(groupsRequest);

  const error = params.error ?? configs.error ?? diffs.error ?? groups.error;
  useEffect(() => {
    if (error) handleError(error);
  }, [error]);

  const baseLabel = useMemo(() => {
    if (!byConfiguration) return names.get(base ?? -1) ?? "the base";
    const row = rows.find((r) => r.configuration_id === baseConfiguration);
    return row
      ? `${names.get(row.experiment_id) ?? ""} (${valuesLabel(row.values)})`
      : "the base configuration";
  }, [byConfiguration, names, base, rows, baseConfiguration]);

  if (isLoading) return <PendingBlock label="Loading experiments" />;
  const metricLabel = METRIC_LABELS[state.metric];
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
          <SavedViews state={{ ...state, x: x || null }} />
        </aside>
        <div className="main-column">
          <CompareToolbar state={state} x={x} groupable={groupable} onChange={setState} />
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
                  unit={diffs.differences.units[state.metric] ?? ""}
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
                  metricLabel={metricLabel}
                  xUnit={declared?.find((p) => p.name === x)?.unit}
                />
              )}
              {table && axes.length > 1 && rows.length > 0 && (
                <ParallelCoordinates
                  table={table}
                  rows={rows}
                  axes={axes}
                  ranges={brush}
                  colourBy={state.metric}
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
                />
              )}
            </>
          )}
        </div>
      </div>
    </section>
  );
}
