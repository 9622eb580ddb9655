// The Models tab's inputs in the URL (nuqs): a pasted link reopens the same model with the same
// what-if edits. (The experiment page's tab itself: features/experiments/urlState.ts.)
import {
  type inferParserType,
  parseAsFloat,
  parseAsInteger,
  parseAsStringLiteral,
  useQueryStates,
} from "nuqs";

export const SERVICE_RATES = ["worker_time", "max_throughput"] as const;
export type ServiceRate = (typeof SERVICE_RATES)[number];

/** What-if edits: unset means "as estimated from the data". Times in µs (TIME_UNIT). */
export const whatIfSearchParams = {
  workers: parseAsInteger,
  middlewares: parseAsInteger,
  servers: parseAsInteger,
  delay_us: parseAsFloat,
  net_us: parseAsFloat,
  worker_us: parseAsFloat,
  server_us: parseAsFloat,
  think_us: parseAsFloat,
} as const;

export type WhatIfEdits = inferParserType<typeof whatIfSearchParams>;

export const modelsSearchParams = {
  /** Which group of configurations (differing only in clients) the network models. */
  group: parseAsInteger.withDefault(0),
  /** How M/M/1 and M/M/m get their service rate. */
  rate: parseAsStringLiteral(SERVICE_RATES).withDefault("worker_time"),
  /** A measured memcached utilization, for the utilization law. */
  util: parseAsFloat,
  ...whatIfSearchParams,
} as const;

/** The Models tab's state; typing replaces the history entry rather than adding one each key. */
export function useModelsViewState() {
  return useQueryStates(modelsSearchParams, { history: "replace" });
}
