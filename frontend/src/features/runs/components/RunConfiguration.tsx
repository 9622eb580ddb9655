// The configuration a run measured, in words ("8 worker threads · SET:GET 1:9"), the
// experiment's fixed values, and a link to that configuration's results.
import { Link } from "react-router";
import type { ConfigurationPublic } from "@/api";
import { useParameterLabels } from "@/lib/hooks/useParameterLabels";
import { configurationFacts, resultsHref } from "./RunConfiguration.utils";

/** Props of RunConfiguration. */
export interface RunConfigurationProps {
  experimentId: number;
  runId: number;
  configuration: ConfigurationPublic;
  /** The experiment's fixed values (its design), the same for every configuration. */
  fixed: Record<string, unknown>;
}

export function RunConfiguration({
  experimentId,
  runId,
  configuration,
  fixed,
}: RunConfigurationProps) {
  const labels = useParameterLabels();
  const facts = configurationFacts(configuration.values, fixed, labels);
  return (
    <section className="card" data-testid="run-configuration">
      <div className="section-header">
        <h2>Configuration #{configuration.index}</h2>
        <Link to={resultsHref(experimentId, configuration, runId)} data-testid="run-results-link">
          Show its results
        </Link>
      </div>
      <p data-testid="run-factors">
        {facts.factors.length > 0
          ? facts.factors.join(" · ")
          : "No factor varied: every run of the experiment has this configuration."}
      </p>
      {facts.fixed.length > 0 && (
        <p className="hint" data-testid="run-fixed">
          Fixed: {facts.fixed.join(" · ")}
        </p>
      )}
    </section>
  );
}
