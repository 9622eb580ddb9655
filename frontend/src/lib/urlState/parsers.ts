// Typed search-param parsers shared by every page that keeps its view in the URL (nuqs).
// Each page has one schema module mapping its keys to these parsers; nothing else reads or
// writes the search string.
import { createParser, parseAsArrayOf, parseAsInteger, parseAsStringLiteral } from "nuqs";
import type { RequestType } from "@/api";
import type { ResultSource, ResultWindow } from "@/lib/queryKeys";

/** The values the source selector offers, in display order. */
export const RESULT_SOURCES = ["client", "middleware"] as const satisfies readonly ResultSource[];
/** The values the request-type selector offers, in display order. */
export const REQUEST_TYPES = [
  "all",
  "get",
  "multiget",
  "set",
] as const satisfies readonly RequestType[];

/** A request type the selectors offer ("other" exists in the API but is never chosen). */
export type SelectableRequestType = (typeof REQUEST_TYPES)[number];

/** Where results are measured: `?source=middleware`. */
export const parseAsSource = parseAsStringLiteral(RESULT_SOURCES);
/** Which requests results cover: `?type=get`. */
export const parseAsRequestType = parseAsStringLiteral(REQUEST_TYPES);

/** A list of ids: `?ids=3,7`. */
export const parseAsIdList = parseAsArrayOf(parseAsInteger);

/** A re-cut window in whole or fractional seconds: `?window=10-50`. */
export const parseAsWindow = createParser<ResultWindow>({
  parse(value) {
    const m = /^(\d+(?:\.\d+)?)-(\d+(?:\.\d+)?)$/.exec(value);
    if (!m) return null;
    const start = Number(m[1]);
    const end = Number(m[2]);
    return Number.isFinite(start) && Number.isFinite(end) ? { start, end } : null;
  },
  serialize: (w) => `${w.start}-${w.end}`,
  eq: (a, b) => a.start === b.start && a.end === b.end,
});

// Pins are "name:level" pairs joined by "~"; neither a parameter name nor a formatted level
// contains "~", and a level may contain ":" (only the first one splits).
const PAIR_SEPARATOR = "~";

/** Fixed levels of factors: `?fix=worker_threads:8~virtual_clients:4`. */
export const parseAsPins = createParser<Record<string, string>>({
  parse(value) {
    const out: Record<string, string> = {};
    for (const pair of value.split(PAIR_SEPARATOR)) {
      const at = pair.indexOf(":");
      if (at <= 0) return null;
      out[pair.slice(0, at)] = pair.slice(at + 1);
    }
    return out;
  },
  serialize: (pins) =>
    Object.entries(pins)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([k, v]) => `${k}:${v}`)
      .join(PAIR_SEPARATOR),
  eq: (a, b) => {
    const ka = Object.keys(a);
    return ka.length === Object.keys(b).length && ka.every((k) => a[k] === b[k]);
  },
});
