// The Compare page's state, kept in the URL (nuqs): what is compared, against which base, and
// how it is shown. A reload, back/forward or a pasted link reopens it exactly; a saved view is
// the same state stored on the server (CompareViewState), converted both ways here.
import {
  createParser,
  createSerializer,
  parseAsBoolean,
  parseAsInteger,
  parseAsString,
  parseAsStringLiteral,
} from "nuqs";
import type { CompareSelection, CompareViewState, HostRole, MetricPublic } from "@/api";
import type { ResultWindow } from "@/lib/queryKeys";
import {
  parseAsIdList,
  parseAsRequestType,
  parseAsWindow,
  REQUEST_TYPES,
  type SelectableRequestType,
} from "@/lib/urlState/parsers";
import type { BrushRanges } from "../components/ParallelCoordinates.utils";

/** A metric of the results core's metric table (served at /metrics). */
export type CompareMetric = NonNullable<CompareViewState["metric"]>;
export const DEFAULT_METRIC: CompareMetric = "throughput_per_s";
export const BANDS = ["std", "se", "ci"] as const;
/** The sides Compare offers: the requests' (load generators, middlewares) and the monitor's
 * hosts, network interfaces and processes (every one of a run summed). */
export const COMPARE_SOURCES = [
  "client",
  "middleware",
  "host",
  "net",
  "process",
] as const satisfies readonly NonNullable<CompareSelection["source"]>[];
export type CompareSource = (typeof COMPARE_SOURCES)[number];
/** The monitor's sides: per run, not per request type (their rows are request type "all"). */
export function isMonitorSource(source: CompareSource): boolean {
  return source === "host" || source === "net" || source === "process";
}
/** What each host role's processes are called; keyed by the API's HostRole, so the roles are
 * the API's (a role added there fails to compile here until it is named). */
export const PROCESS_ROLE_LABELS: Record<HostRole, string> = {
  middleware: "middlewares",
  server: "memcached servers",
  client: "load generators",
};
export const PROCESS_ROLES = Object.keys(PROCESS_ROLE_LABELS) as HostRole[];
/** The grouping by experiment; any other value of `group` is a parameter name. */
export const GROUP_BY_EXPERIMENT = "experiment";

// Axes are joined by "~", an axis key ends at its ":", intervals are joined by "," and an
// interval's ends by "_" (ends may be negative or in e-notation; keys never contain ":").
const AXIS_SEPARATOR = "~";
const NUMBER = /^-?\d+(?:\.\d+)?(?:e[+-]?\d+)?$/i;

function serializeBrush(brush: BrushRanges): string {
  return Object.entries(brush)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([key, ranges]) => `${key}:${ranges.map(([lo, hi]) => `${lo}_${hi}`).join(",")}`)
    .join(AXIS_SEPARATOR);
}

/** The parallel coordinates' brush, intervals per axis key:
 * `?brush=throughput_per_s:0_500,900_1200~workers:19.8_40`. */
export const parseAsBrush = createParser<BrushRanges>({
  parse(value) {
    const out: BrushRanges = {};
    for (const axis of value.split(AXIS_SEPARATOR)) {
      const at = axis.indexOf(":");
      if (at <= 0) return null;
      const ranges: [number, number][] = [];
      for (const interval of axis.slice(at + 1).split(",")) {
        const ends = interval.split("_");
        if (ends.length !== 2 || !ends.every((e) => NUMBER.test(e))) return null;
        const [lo, hi] = ends.map(Number) as [number, number];
        if (!(lo <= hi)) return null;
        ranges.push([lo, hi]);
      }
      out[axis.slice(0, at)] = ranges;
    }
    return out;
  },
  serialize: serializeBrush,
  eq: (a, b) => serializeBrush(a) === serializeBrush(b),
});

export const compareParsers = {
  experiments: parseAsIdList.withDefault([]),
  base: parseAsInteger,
  configurations: parseAsIdList.withDefault([]),
  baseConfiguration: parseAsInteger,
  // Any name: checked against the served metric table (effectiveMetric), not a copy of it.
  metric: parseAsString.withDefault(DEFAULT_METRIC),
  x: parseAsString,
  group: parseAsString.withDefault(GROUP_BY_EXPERIMENT),
  band: parseAsStringLiteral(BANDS).withDefault("std"),
  source: parseAsStringLiteral(COMPARE_SOURCES).withDefault("client"),
  role: parseAsStringLiteral(PROCESS_ROLES),
  requestType: parseAsRequestType.withDefault("all"),
  window: parseAsWindow,
  onlyDifferences: parseAsBoolean.withDefault(false),
  brush: parseAsBrush,
};

/** Short, readable query keys (source, type and window as on the results pages):
 * /compare?e=3,1&base=1&group=workers&band=ci */
export const compareUrlKeys = {
  experiments: "e",
  base: "base",
  configurations: "c",
  baseConfiguration: "cbase",
  metric: "metric",
  x: "x",
  group: "group",
  band: "band",
  source: "source",
  role: "role",
  requestType: "type",
  window: "window",
  onlyDifferences: "diff",
  brush: "brush",
} as const;

export interface CompareState {
  experiments: number[];
  base: number | null;
  configurations: number[];
  baseConfiguration: number | null;
  /** As the URL has it; effectiveMetric says what is shown. */
  metric: string;
  x: string | null;
  group: string;
  band: (typeof BANDS)[number];
  source: CompareSource;
  /** One role's processes (source "process" only; null: every process); see selectedRole. */
  role: HostRole | null;
  requestType: SelectableRequestType;
  window: ResultWindow | null;
  onlyDifferences: boolean;
  /** The parallel coordinates' brush (null: none); see withBrushScope. */
  brush: BrushRanges | null;
}

/** What a brush was dragged on: its intervals are in that figure's axis numbers. */
const BRUSH_SCOPE = ["experiments", "source", "role", "requestType", "window", "metric"] as const;

/** A change of the state, with the brush dropped when the change leaves the selection or
 * metric it was dragged on (the one rule for every change of the page's state). */
export function withBrushScope(
  current: CompareState,
  patch: Partial<CompareState>,
): Partial<CompareState> {
  if ("brush" in patch || current.brush === null) return patch;
  const moved = BRUSH_SCOPE.some(
    (k) => k in patch && JSON.stringify(patch[k]) !== JSON.stringify(current[k]),
  );
  return moved ? { ...patch, brush: null } : patch;
}

/** The role the API is asked for: the chosen one on the process side, else none (the API
 * answers 422 for a role on another side). */
export function selectedRole(s: Pick<CompareState, "source" | "role">): HostRole | null {
  return s.source === "process" ? s.role : null;
}

/** "?e=3,1&base=1..." for a state (defaults left out), for links and reopening saved views. */
export const serializeCompare = createSerializer(compareParsers, { urlKeys: compareUrlKeys });

export function toViewState(s: CompareState): CompareViewState {
  return {
    experiment_ids: s.experiments,
    base_experiment_id: s.base,
    configuration_ids: s.configurations,
    base_configuration_id: s.baseConfiguration,
    metric: s.metric as CompareMetric,
    x: s.x,
    group_by: s.group,
    band: s.band,
    source: s.source,
    role: selectedRole(s),
    request_type: s.requestType,
    window_start_s: s.window?.start ?? null,
    window_end_s: s.window?.end ?? null,
    only_differences: s.onlyDifferences,
    brush: s.brush,
  };
}

export function fromViewState(v: CompareViewState): CompareState {
  const rt = v.request_type ?? "all";
  return {
    experiments: v.experiment_ids ?? [],
    base: v.base_experiment_id ?? null,
    configurations: v.configuration_ids ?? [],
    baseConfiguration: v.base_configuration_id ?? null,
    metric: v.metric ?? DEFAULT_METRIC,
    x: v.x ?? null,
    group: v.group_by ?? GROUP_BY_EXPERIMENT,
    band: v.band ?? "std",
    source: v.source ?? "client",
    role: v.role ?? null,
    requestType: (REQUEST_TYPES as readonly string[]).includes(rt)
      ? (rt as SelectableRequestType)
      : "all",
    window:
      v.window_start_s !== null &&
      v.window_start_s !== undefined &&
      v.window_end_s !== null &&
      v.window_end_s !== undefined
        ? { start: v.window_start_s, end: v.window_end_s }
        : null,
    onlyDifferences: v.only_differences ?? false,
    brush: v.brush && Object.keys(v.brush).length > 0 ? v.brush : null,
  };
}

/** The base experiment actually used: the chosen one if still selected, else the first. */
export function effectiveBase(s: Pick<CompareState, "experiments" | "base">): number | null {
  return s.base !== null && s.experiments.includes(s.base) ? s.base : (s.experiments[0] ?? null);
}

/** The metrics the chosen side reports (queue times are the middleware's). */
export function offeredMetrics(
  metrics: readonly MetricPublic[] | undefined,
  source: CompareState["source"],
): MetricPublic[] {
  return (metrics ?? []).filter((m) => m.sources.includes(source));
}

/** The metric shown: the chosen one if offered, else throughput, else the side's first (a
 * stale or pasted name, or a monitor side, which reports no throughput). */
export function effectiveMetric(chosen: string, offered: readonly MetricPublic[]): CompareMetric {
  const names = offered.map((m) => m.name);
  if (names.includes(chosen)) return chosen as CompareMetric;
  return (
    names.includes(DEFAULT_METRIC) ? DEFAULT_METRIC : (names[0] ?? DEFAULT_METRIC)
  ) as CompareMetric;
}

/** The metrics a configuration table asks for: the overview's the side reports, and the shown
 * one (the API answers 422 for a metric the side does not report). */
export function tableMetrics(
  metric: CompareMetric,
  offered: readonly MetricPublic[],
): CompareMetric[] {
  const overview = (["throughput_per_s", "response_time_us"] as const).filter((m) =>
    offered.some((o) => o.name === m),
  );
  return [...new Set<CompareMetric>([...overview, metric])];
}

const BAND_TEXT: Record<CompareState["band"], string> = {
  std: "± std",
  se: "± standard error",
  ci: "95% t confidence interval",
};

/** The grouped curves' heading: "Throughput by worker threads, band ± std". */
export function groupedCurvesTitle(
  metricLabel: string,
  byLabel: string,
  band: CompareState["band"],
) {
  const what = metricLabel.charAt(0).toUpperCase() + metricLabel.slice(1);
  return `${what} by ${byLabel}, band ${BAND_TEXT[band]}`;
}
