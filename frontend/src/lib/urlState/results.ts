// The results view's URL schema: every control of the view is one typed search param, so a
// reload, back/forward or a pasted link reopens the same view.
import {
  type inferParserType,
  parseAsBoolean,
  parseAsInteger,
  parseAsString,
  parseAsStringLiteral,
  useQueryStates,
} from "nuqs";
import { parseAsPins, parseAsRequestType, parseAsSource, parseAsWindow } from "./parsers";

/** How the spread over repetitions is drawn around each mean. */
export const BAND_TYPES = ["bars", "band", "none"] as const;
export type BandType = (typeof BAND_TYPES)[number];

/** The response-time component a histogram shows (client: the load generator's own). */
export const HISTOGRAM_METRICS = ["client", "total", "queue", "server"] as const;

/** Key -> parser of every results control; defaults are what a fresh page shows. */
export const resultsSearchParams = {
  source: parseAsSource.withDefault("client"),
  type: parseAsRequestType.withDefault("all"),
  /** x-axis factor; empty = the first factor. */
  x: parseAsString.withDefault(""),
  /** "one line per" factor; empty = the first factor besides x. */
  line: parseAsString.withDefault(""),
  /** Levels chosen for the other factors (unchosen ones show their first level). */
  fix: parseAsPins.withDefault({}),
  window: parseAsWindow,
  logx: parseAsBoolean.withDefault(false),
  logy: parseAsBoolean.withDefault(false),
  band: parseAsStringLiteral(BAND_TYPES).withDefault("bars"),
  /** The configuration the histogram shows. */
  config: parseAsInteger,
  /** The histogram's response-time component. */
  metric: parseAsStringLiteral(HISTOGRAM_METRICS).withDefault("total"),
  hlogx: parseAsBoolean.withDefault(false),
  /** The level of the line factor the percentiles figure is pinned to. */
  plevel: parseAsString.withDefault(""),
  /** The run the time series shows. */
  run: parseAsInteger,
  /** Factorial analysis with the multiplicative (log y) model. */
  mult: parseAsBoolean.withDefault(false),
} as const;

export type ResultsViewState = inferParserType<typeof resultsSearchParams>;

/** The results view's state and its setter; each change is one history entry. */
export function useResultsViewState() {
  return useQueryStates(resultsSearchParams, { history: "push" });
}
