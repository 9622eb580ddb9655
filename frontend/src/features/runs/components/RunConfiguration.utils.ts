// What a run's configuration was, in words, and the results view showing that configuration.
import { createSerializer } from "nuqs";
import type { ConfigurationPublic } from "@/api";
import { formatValue } from "@/lib/format";
import type { ParameterLabels } from "@/lib/labels";
import { resultsSearchParams } from "@/lib/urlState/results";

/** The factor levels of the configuration and the experiment's fixed values, each in words. */
export interface ConfigurationFacts {
  factors: string[];
  fixed: string[];
}

export function configurationFacts(
  values: Record<string, unknown>,
  fixed: Record<string, unknown>,
  labels: Pick<ParameterLabels, "text">,
): ConfigurationFacts {
  return {
    factors: Object.entries(values).map(([name, value]) => labels.text(name, value)),
    fixed: Object.entries(fixed)
      .filter(([name]) => !(name in values))
      .map(([name, value]) => labels.text(name, value)),
  };
}

const serializeResults = createSerializer(resultsSearchParams);

/**
 * The experiment page's results view on this configuration: its histogram, this run's time
 * series, and every factor pinned to its level (the view ignores pins of the axis and line
 * factors), so the view stays on it whichever factor goes on the x axis.
 */
export function resultsHref(
  experimentId: number,
  configuration: Pick<ConfigurationPublic, "id" | "values">,
  runId: number,
): string {
  const fix = Object.fromEntries(
    Object.entries(configuration.values).map(([name, value]) => [name, formatValue(value)]),
  );
  return serializeResults(`/experiments/${experimentId}`, {
    config: configuration.id,
    run: runId,
    fix: Object.keys(fix).length > 0 ? fix : null,
  });
}
