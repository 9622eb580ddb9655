// The Models page calculators' URL schema: every input is a search param, so a solved model
// can be reloaded or sent as a link. (The experiment page's Models tab has its own, urlState.ts.)
import {
  type inferParserType,
  parseAsFloat,
  parseAsInteger,
  parseAsJson,
  useQueryStates,
} from "nuqs";
import { DEFAULT_STATIONS, type StationRow } from "./utils/mva";

const STATION_KINDS = new Set(["delay", "queue", "multi"]);

/** A station list from the URL, or null (the default list) when any row is malformed. */
export function parseStations(value: unknown): StationRow[] | null {
  if (!Array.isArray(value) || value.length === 0) return null;
  const ok = value.every(
    (s) =>
      typeof s === "object" &&
      s !== null &&
      typeof s.name === "string" &&
      STATION_KINDS.has(s.kind) &&
      [s.service_us, s.visits, s.servers].every((n) => typeof n === "number"),
  );
  return ok ? (value as StationRow[]) : null;
}

// Defaults are the published checks in DOMAIN.md, so the first answer can be compared.
export const queueSearchParams = (multi: boolean) =>
  ({
    lambda: parseAsFloat.withDefault(multi ? 5955.95 : 18062),
    mu: parseAsFloat.withDefault(multi ? 421.93 : 20788),
    servers: parseAsInteger.withDefault(16),
  }) as const;

export const mvaSearchParams = {
  stations: parseAsJson(parseStations).withDefault(DEFAULT_STATIONS),
  population: parseAsInteger.withDefault(24),
  think: parseAsFloat.withDefault(0),
} as const;

export type MvaViewState = inferParserType<typeof mvaSearchParams>;

/** One queue calculator's inputs, under "mm1.*" or "mmm.*" in the URL. */
export function useQueueInputs(multi: boolean) {
  const prefix = multi ? "mmm" : "mm1";
  return useQueryStates(queueSearchParams(multi), {
    urlKeys: { lambda: `${prefix}.lambda`, mu: `${prefix}.mu`, servers: `${prefix}.servers` },
  });
}

/** The MVA calculator's inputs, under "mva.*" in the URL. */
export function useMvaInputs() {
  return useQueryStates(mvaSearchParams, {
    urlKeys: { stations: "mva.stations", population: "mva.n", think: "mva.think" },
  });
}
