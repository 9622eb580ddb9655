// The runs section of an experiment page: status filter and a polled runs table.
import { useEffect, useMemo, useState } from "react";
import type { ConfigurationPublic, ConfigurationQualityPublic, FlagPublic, RunStatus } from "@/api";
import { EmptyState } from "@/components/common/EmptyState";
import { handleError } from "@/components/common/handleError";
import { PendingBlock } from "@/components/common/PendingBlock";
import { RerunFlaggedButton, useGetExperimentQualityQuery } from "@/features/quality";
import { useGetRunsQuery } from "../hooks/useGetRunsQuery";
import { RunsTable } from "./RunsTable";

const STATUSES: RunStatus[] = ["queued", "running", "succeeded", "failed", "cancelled"];

/** Props of RunsPanel. */
export interface RunsPanelProps {
  experimentId: number;
  active: boolean;
  configurations: ConfigurationPublic[];
}

export function RunsPanel({ experimentId, active, configurations }: RunsPanelProps) {
  const [status, setStatus] = useState<RunStatus | "">("");
  const { runs, isLoading, error } = useGetRunsQuery(experimentId, {
    status: status || undefined,
    poll: active,
  });
  const indexById = useMemo(
    () => new Map(configurations.map((c) => [c.id, c.index])),
    [configurations],
  );
  const { quality, error: qualityError } = useGetExperimentQualityQuery(experimentId, null, active);
  useEffect(() => {
    if (error) handleError(error);
  }, [error]);
  useEffect(() => {
    if (qualityError) handleError(qualityError);
  }, [qualityError]);
  const repetitionFlags = useMemo(() => byRun(quality?.configurations ?? []), [quality]);

  return (
    <section className="card">
      <div className="section-header">
        <h2>Runs {active && <span className="hint">(refreshing every 2 s)</span>}</h2>
        <RerunFlaggedButton
          experimentId={experimentId}
          flagged={quality?.flagged_run_ids.length ?? 0}
        />
        <select
          aria-label="Run status filter"
          value={status}
          onChange={(e) => setStatus(e.target.value as RunStatus | "")}
        >
          <option value="">All statuses</option>
          {STATUSES.map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </select>
      </div>
      {isLoading ? (
        <PendingBlock label="Loading runs" />
      ) : runs && runs.count > 0 ? (
        <div className="scroll">
          <RunsTable
            runs={runs.data}
            configurationIndex={(id) => indexById.get(id)}
            repetitionFlags={repetitionFlags}
          />
        </div>
      ) : (
        <EmptyState title="No runs">
          <p>Start the experiment to queue one run per configuration and repetition.</p>
        </EmptyState>
      )}
    </section>
  );
}

/** Configuration flags naming a repetition (outliers), by the run they name. */
export function byRun(configurations: ConfigurationQualityPublic[]): Map<number, FlagPublic[]> {
  const out = new Map<number, FlagPublic[]>();
  for (const c of configurations)
    for (const f of c.flags)
      if (f.run_id != null) out.set(f.run_id, [...(out.get(f.run_id) ?? []), f]);
  return out;
}
