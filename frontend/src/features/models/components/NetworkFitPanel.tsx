// DOMAIN.md's closed network built from the experiment's own configuration and measured times,
// solved over its client counts and drawn over the measured points; edits give a what-if curve.
import { useMemo } from "react";
import type { NetworkGroupPublic } from "@/api";
import { FitMessages, FitWarning } from "@/components/common/FitWarning";
import { Unavailable } from "@/components/common/Unavailable";
import { ServerPlot, TableExportButtons } from "@/features/export";
import { slug } from "@/lib/download";
import { formatNumber } from "@/lib/format";
import { useMetricLabels } from "@/lib/hooks/useMetricLabels";
import { THROUGHPUT_METRIC, TIME_UNIT, timeFromSeconds, withUnit } from "@/lib/labels";
import { windowQuery } from "@/lib/queryKeys";
import { useResultsSelection } from "@/lib/urlState/resultsSelection";
import { useSolveNetworkQuery } from "../hooks/useSolveNetworkQuery";
import { useModelsViewState, type WhatIfEdits } from "../urlState";
import { applyEdits, hasEdits, networkRequest, whatIfParams } from "../utils/fit";
import { MeasuredUtilizationTable } from "./MeasuredUtilizationTable";
import { ModelInputsTable } from "./ModelInputsTable";

/** Props of NetworkFitPanel. */
export interface NetworkFitPanelProps {
  group: NetworkGroupPublic;
  /** The group's index, as the server's model figures pick it. */
  groupIndex: number;
  /** A measured memcached utilization (the utilization law), or null. */
  util: number | null;
}

export function NetworkFitPanel({ group, groupIndex, util }: NetworkFitPanelProps) {
  const { experimentId, name, requestType, cut: window } = useResultsSelection();
  const metrics = useMetricLabels();
  const [state, setState] = useModelsViewState();
  const edits: WhatIfEdits = state;
  const fittedBody = useMemo(() => networkRequest(group.system, group.points), [group]);
  const edited = useMemo(() => applyEdits(group.system, edits), [group, edits]);
  const whatIfBody = useMemo(
    () => (hasEdits(group.system, edits) ? networkRequest(edited, group.points) : null),
    [group, edits, edited],
  );
  const fitted = useSolveNetworkQuery(fittedBody);
  const whatIf = useSolveNetworkQuery(whatIfBody);
  const shownWhatIf = whatIfBody ? whatIf.solved : undefined;
  // The figures are the server's, drawn from the same inputs and edits.
  const params = useMemo(
    () => ({
      request_type: requestType,
      group: groupIndex,
      server_utilization: util,
      what_if: whatIfParams(group.system, edits),
      ...windowQuery(window),
    }),
    [requestType, groupIndex, util, group, edits, window],
  );
  const model = (shownWhatIf ?? fitted.solved)?.model;
  const base = `${slug(name)}-mva`;
  return (
    <div data-testid="network-fit">
      <p className="hint">
        Network of DOMAIN.md: clients (think time Z) → network delay → per middleware a net thread
        (one server) and a worker pool (m-server, load dependent) → memcached servers (visit ratio
        from the routing) → network delay. Exact MVA over N = 1…
        {Math.max(...group.points.map((p) => p.clients))}.
      </p>
      {model && (
        <dl className="stats inline" data-testid="network-summary">
          <dt>bottleneck{shownWhatIf ? " (what-if)" : ""}</dt>
          <dd data-testid="bottleneck">{model.bottleneck}</dd>
          <dt>X at N = {model.at_population.population}</dt>
          <dd data-testid="model-throughput">
            {formatNumber(model.at_population.throughput_per_s, 1)}{" "}
            {metrics.unit(THROUGHPUT_METRIC)}
          </dd>
          <dt>R at N = {model.at_population.population}</dt>
          <dd>
            {formatNumber(timeFromSeconds(model.at_population.response_time_s), 1)} {TIME_UNIT}
          </dd>
          {fitted.solved?.model.bounds && (
            <>
              <dt>knee N*</dt>
              <dd>{formatNumber(fitted.solved.model.bounds.knee_population, 1)}</dd>
            </>
          )}
        </dl>
      )}
      {fitted.error && !model && (
        <Unavailable
          what="The fitted MVA model"
          error={fitted.error}
          testId="network-fit-unavailable"
        />
      )}
      {whatIf.error && whatIfBody && (
        <p className="error" data-testid="whatif-error">
          What-if not solvable: {whatIf.error.message}
        </p>
      )}
      <div className="figures">
        <ServerPlot
          title="Throughput: model over measurement"
          figure={{ experimentId, name: "model-throughput", params }}
          filename={`${base}-throughput`}
        />
        <ServerPlot
          title="Response time: model over measurement"
          figure={{ experimentId, name: "model-response-time", params }}
          filename={`${base}-response-time`}
        />
      </div>
      <div className="section-header">
        <h3>Inputs (edit any to see the what-if curve)</h3>
        <button
          type="button"
          onClick={() =>
            setState({
              workers: null,
              middlewares: null,
              servers: null,
              delay_us: null,
              net_us: null,
              worker_us: null,
              server_us: null,
              think_us: null,
            })
          }
        >
          Reset to the data
        </button>
      </div>
      <ModelInputsTable
        system={group.system}
        estimates={group.estimates}
        edits={edits}
        onEdit={(key, value) => setState({ [key]: value })}
      />
      <MeasuredUtilizationTable rows={group.utilization} />
      {fitted.solved && (
        <div className="section-header">
          <h3>Model against measurement (inputs from the data)</h3>
          <TableExportButtons
            table={{
              experimentId,
              name: "model-comparison",
              params: { request_type: requestType, group: groupIndex, ...windowQuery(window) },
            }}
            filename={`${base}-comparison`}
            testId="model-table-exports"
          />
        </div>
      )}
      {fitted.solved && (
        <table className="table compact" data-testid="network-rows">
          <thead>
            <tr>
              <th className="num">N</th>
              <th className="num">{withUnit("measured X", metrics.unit(THROUGHPUT_METRIC))}</th>
              <th className="num">model X</th>
              <th className="num">bound X</th>
              <th className="num">error (%)</th>
              <th className="num">measured R ({TIME_UNIT})</th>
              <th className="num">model R</th>
              <th className="num">bound R</th>
              <th className="num">error (%)</th>
            </tr>
          </thead>
          <tbody>
            {fitted.solved.rows.map((row) => (
              <tr key={row.clients}>
                <td className="num">{row.clients}</td>
                <td className="num">
                  {formatNumber(row.measured_throughput_per_s, 1)}
                  <FitWarning fit={row.throughput_fit} />
                </td>
                <td className="num">{formatNumber(row.model_throughput_per_s, 1)}</td>
                <td className="num">{formatNumber(row.bound_throughput_per_s, 1)}</td>
                <td className="num">{formatNumber(row.throughput_deviation_percent, 1)}</td>
                <td className="num">
                  {row.measured_response_time_s === null
                    ? "–"
                    : formatNumber(timeFromSeconds(row.measured_response_time_s), 1)}
                  <FitWarning fit={row.response_time_fit} />
                </td>
                <td className="num">
                  {formatNumber(timeFromSeconds(row.model_response_time_s), 1)}
                </td>
                <td className="num">
                  {formatNumber(timeFromSeconds(row.bound_response_time_s), 1)}
                </td>
                <td className="num">
                  {row.response_deviation_percent === null
                    ? "–"
                    : formatNumber(row.response_deviation_percent, 1)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {fitted.solved && (
        <FitMessages
          fits={fitted.solved.rows.flatMap((r) => [r.throughput_fit, r.response_time_fit])}
        />
      )}
    </div>
  );
}
