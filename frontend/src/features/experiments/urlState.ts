// The experiments list's URL schema (search text, template filter and page), and the experiment
// page's tab.
import {
  type inferParserType,
  parseAsInteger,
  parseAsString,
  parseAsStringLiteral,
  useQueryStates,
} from "nuqs";

export const experimentListSearchParams = {
  q: parseAsString.withDefault(""),
  template: parseAsString.withDefault(""),
  skip: parseAsInteger.withDefault(0),
} as const;

export type ExperimentListViewState = inferParserType<typeof experimentListSearchParams>;

/** The list's filters; typing replaces the history entry, paging and filters push one. */
export function useExperimentListState() {
  return useQueryStates(experimentListSearchParams);
}

export const EXPERIMENT_TABS = ["results", "runs", "configurations", "models", "report"] as const;
export type ExperimentTab = (typeof EXPERIMENT_TABS)[number];

/** ?tab=: unset means the page's default (see defaultTab). */
export const experimentPageSearchParams = {
  tab: parseAsStringLiteral(EXPERIMENT_TABS),
} as const;

/** The tab an experiment opens on without ?tab=: its grid while nothing has run (Results
 * would be empty), its results once anything has. */
export function defaultTab(runCounts: Record<string, number>): ExperimentTab {
  return Object.values(runCounts).some((n) => n > 0) ? "results" : "configurations";
}

/** The experiment page's tab; choosing one pushes a history entry, so Back returns to it. */
export function useExperimentTab() {
  return useQueryStates(experimentPageSearchParams, { history: "push" });
}
