// One run: its configuration in words, status, full error text, hosts, tool versions, every
// command line, phase timings and a download of its raw files.
import { useEffect } from "react";
import { Link, useParams } from "react-router";
import type { RunPublic } from "@/api";
import { EmptyState } from "@/components/common/EmptyState";
import { handleError } from "@/components/common/handleError";
import { PendingBlock } from "@/components/common/PendingBlock";
import { StatusBadge } from "@/components/common/StatusBadge";
import { RunQuality } from "@/features/quality";
import { NetworkTable } from "@/features/testbeds";
import { ApiError } from "@/lib/apiError";
import { formatNumber } from "@/lib/format";
import { useGetExperimentQuery } from "@/lib/hooks/useGetExperimentQuery";
import { useDownloadRunFilesMutation } from "../hooks/useDownloadRunFilesMutation";
import { useGetRunQuery } from "../hooks/useGetRunQuery";
import { foldRepeatedLines } from "../utils/repeatedLines";
import { runDuration, useNow } from "../utils/runDuration";
import { RunConfiguration } from "./RunConfiguration";
import { resultsHref } from "./RunConfiguration.utils";
import { RunFiles } from "./RunFiles";
import { RunHosts } from "./RunHosts";
import { RunMachines } from "./RunMachines";

export function RunPage() {
  const runId = Number(useParams().runId);
  const { run, isLoading } = useGetRunQuery(runId);
  const download = useDownloadRunFilesMutation();
  const now = useNow(run?.status === "running");
  // The run brings its own configuration; the experiment gives its name and fixed values
  // (cached from the experiment page when coming from there).
  const experimentId = run?.experiment_id ?? 0;
  const { experiment, error: experimentError } = useGetExperimentQuery(
    experimentId,
    run !== undefined,
  );
  useEffect(() => {
    if (experimentError) handleError(experimentError);
  }, [experimentError]);
  if (isLoading) return <PendingBlock label="Loading run" rows={6} />;
  if (!run) {
    return (
      <EmptyState title="Run not found">
        <Link to="/experiments">Back to experiments</Link>
      </EmptyState>
    );
  }
  const { configuration } = run;
  const noFiles = download.error instanceof ApiError && download.error.status === 404;
  const phases = phaseTimings(run);
  return (
    <section data-testid="run-page">
      <div className="page-header">
        <h1>
          Run {run.id} <StatusBadge status={run.status} />
        </h1>
        <button
          type="button"
          className="primary"
          disabled={download.isPending}
          onClick={() => download.mutate(run.id)}
        >
          {download.isPending ? "Preparing zip…" : "Download raw files (zip)"}
        </button>
      </div>
      {noFiles && (
        <p className="hint" data-testid="no-raw-files">
          This run kept no raw files (it never reached the point of collecting outputs).
        </p>
      )}
      <dl className="stats inline">
        <dt>Experiment</dt>
        <dd>
          <Link to={`/experiments/${run.experiment_id}`}>
            {experiment ? experiment.name : `#${run.experiment_id}`}
          </Link>
        </dd>
        <dt>Configuration</dt>
        <dd>
          <Link to={resultsHref(run.experiment_id, configuration, run.id)}>
            #{configuration.index}
          </Link>
        </dd>
        <dt>Repetition</dt>
        <dd>{run.repetition}</dd>
        <dt>Attempt</dt>
        <dd>{run.attempt}</dd>
        <dt>Started</dt>
        <dd>{run.started_at ? new Date(run.started_at).toLocaleString() : "not yet"}</dd>
        <dt>Duration</dt>
        <dd>{runDuration(run, now)}</dd>
        <dt>Worker</dt>
        <dd>{run.worker ?? "–"}</dd>
      </dl>
      {experiment ? (
        <RunConfiguration
          experimentId={run.experiment_id}
          runId={run.id}
          configuration={configuration}
          fixed={experiment.fixed ?? {}}
        />
      ) : (
        !experimentError && <PendingBlock label="Loading configuration" rows={2} />
      )}
      <RunQuality runId={run.id} experimentId={run.experiment_id} flags={run.flags ?? []} />
      {run.error && (
        <section className="card">
          <h2>Error</h2>
          <pre className="error-text" data-testid="run-error">
            {foldRepeatedLines(run.error).map((line, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: the lines never reorder
              <span key={i}>
                {i > 0 && "\n"}
                {line.text}
                {line.count > 1 && (
                  <span className="repeat-count" title={`${line.count} identical lines`}>
                    {` ×${line.count}`}
                  </span>
                )}
              </span>
            ))}
          </pre>
        </section>
      )}
      {phases.length > 0 && (
        <section className="card" data-testid="phase-timings">
          <h2>Phase timings</h2>
          <table className="table compact">
            <thead>
              <tr>
                <th>phase</th>
                <th className="num">time (s)</th>
              </tr>
            </thead>
            <tbody>
              {phases.map(([phase, seconds]) => (
                <tr key={phase}>
                  <td>{phase.replaceAll("_", " ")}</td>
                  <td className="num">{formatNumber(seconds, 2)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      )}
      {run.status === "succeeded" && (
        <RunMachines experimentId={run.experiment_id} runId={run.id} />
      )}
      <section className="card">
        <h2>Hosts</h2>
        <RunHosts hosts={run.hosts} />
      </section>
      <section className="card">
        <h2>Network</h2>
        <NetworkTable
          network={run.network}
          emptyHint="Not measured: the run measures its paths' round trips before its load starts."
          testId="run-network"
        />
      </section>
      <section className="card">
        <h2>Tool versions</h2>
        {Object.keys(run.tool_versions).length === 0 ? (
          <p className="hint">Not checked yet: tools are checked when the run starts.</p>
        ) : (
          <table className="table compact" data-testid="tool-versions">
            <tbody>
              {Object.entries(run.tool_versions).map(([tool, version]) => (
                <tr key={tool}>
                  <th>{tool}</th>
                  <td>{version}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
      <section className="card">
        <h2>Raw files</h2>
        <RunFiles runId={run.id} live={run.status === "running"} />
      </section>
      <section className="card">
        <h2>Command lines</h2>
        {run.commands.length === 0 ? (
          <p className="hint">No process started yet.</p>
        ) : (
          <ol className="commands" data-testid="run-commands">
            {run.commands.map((c) => (
              <li key={`${String(c.pid)}-${String(c.started_unix)}-${String(c.command)}`}>
                <span className="hint">
                  {String(c.role ?? "")} {String(c.source ?? "")} on {String(c.host ?? "")}
                </span>
                <pre>{String(c.command ?? JSON.stringify(c))}</pre>
              </li>
            ))}
          </ol>
        )}
      </section>
    </section>
  );
}

/** Phase name -> seconds as the worker recorded them, in recorded order (older runs: none). */
function phaseTimings(run: RunPublic): [string, number][] {
  return Object.entries(run.phase_timings ?? {});
}
