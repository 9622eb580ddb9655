// The experiments list's URL schema: search text, template filter and page.
import { type inferParserType, parseAsInteger, parseAsString, useQueryStates } from "nuqs";

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
