// The Models tab of an experiment: queueing models filled from its own measurements, drawn
// over them (M/M/1, M/M/m per configuration; the MVA network per group, with what-if).
import { EmptyState } from "@/components/common/EmptyState";
import { PendingBlock } from "@/components/common/PendingBlock";
import { useParameterLabels } from "@/lib/hooks/useParameterLabels";
import { useResultsSelection } from "@/lib/urlState/resultsSelection";
import { useGetBottlenecksQuery } from "../hooks/useGetBottlenecksQuery";
import { useGetDemandModelsQuery } from "../hooks/useGetDemandModelsQuery";
import { useGetNetworkInputsQuery } from "../hooks/useGetNetworkInputsQuery";
import { useGetQueueModelsQuery } from "../hooks/useGetQueueModelsQuery";
import { useModelsViewState } from "../urlState";
import { BottleneckStatement } from "./BottleneckStatement";
import { DemandModelPanel } from "./DemandModelPanel";
import { NetworkFitPanel } from "./NetworkFitPanel";
import { QueueModelsPanel } from "./QueueModelsPanel";

export function ExperimentModelsView() {
  // The request type and measured window chosen on the Results tab apply here too.
  const { experimentId, requestType, cut: window } = useResultsSelection();
  // A group of configurations in words: "8 worker threads, 2 middlewares".
  const { values: groupName } = useParameterLabels();
  const [state, setState] = useModelsViewState();
  const { inputs, isLoading, error } = useGetNetworkInputsQuery(
    experimentId,
    requestType,
    state.util,
    window,
  );
  const { queueModels, error: queueError } = useGetQueueModelsQuery(
    experimentId,
    requestType,
    state.rate,
    window,
  );
  const { demands, error: demandError } = useGetDemandModelsQuery(experimentId);
  const { bottlenecks } = useGetBottlenecksQuery(experimentId, requestType, state.util, window);
  if (isLoading) return <PendingBlock label="Loading models" />;
  const groups = inputs?.data ?? [];
  const index = Math.min(state.group, Math.max(groups.length - 1, 0));
  const group = groups[index];
  // The demand model of the same configurations (groups with monitor data only).
  const demandGroup =
    demands?.data.find((d) => group && groupName(d.group) === groupName(group.group)) ??
    demands?.data[0];
  const bottleneck = bottlenecks?.data.find(
    (b) => group && groupName(b.group) === groupName(group.group),
  );
  return (
    <section className="card" data-testid="models-view">
      <div className="section-header">
        <h2>Models over measurements</h2>
      </div>
      <p className="hint" data-testid="models-selection">
        Measured{" "}
        {window
          ? `over seconds ${window.start}–${window.end} of each run`
          : "over each run's stable window"}
        , request type {requestType} (chosen on the Results tab).
      </p>
      {error && !group ? (
        <EmptyState title="No model for this experiment yet">
          <p>{error.message}</p>
        </EmptyState>
      ) : (
        group && (
          <>
            <div className="toolbar">
              {groups.length > 1 && (
                <label>
                  configurations
                  <select
                    name="model-group"
                    value={index}
                    onChange={(e) => setState({ group: Number(e.target.value) })}
                  >
                    {groups.map((g, i) => (
                      <option key={groupName(g.group)} value={i}>
                        {groupName(g.group)}
                      </option>
                    ))}
                  </select>
                </label>
              )}
              <label>
                measured memcached utilization
                <input
                  type="number"
                  name="server-utilization"
                  min={0}
                  max={1}
                  step="any"
                  placeholder="not measured"
                  value={state.util ?? ""}
                  onChange={(e) =>
                    setState({ util: e.target.value === "" ? null : Number(e.target.value) })
                  }
                />
              </label>
            </div>
            {error && <p className="error">{error.message}</p>}
            {bottleneck && <BottleneckStatement bottleneck={bottleneck} />}
            <h3>MVA of the closed network</h3>
            <NetworkFitPanel group={group} groupIndex={index} util={state.util} />
          </>
        )
      )}
      <h3>Model from measured demands</h3>
      {demandGroup ? (
        <DemandModelPanel group={demandGroup} />
      ) : (
        demandError && <p className="hint">No demand model: {demandError.message}</p>
      )}
      <h3>M/M/1 and M/M/m per configuration</h3>
      {queueModels ? (
        <QueueModelsPanel
          groupIndex={index}
          models={queueModels}
          rate={state.rate}
          onRate={(rate) => setState({ rate })}
          groupLabel={group ? groupName(group.group) : null}
        />
      ) : (
        queueError && <p className="hint">Queue models not available: {queueError.message}</p>
      )}
    </section>
  );
}
