// Human labels for parameters, metrics and units. The one source is the backend: the
// parameter schema (/parameters: `label`, `legend`, `unit`) and the results core's metric
// table (/metrics: `label`, `unit`), the same names server figures and tables print.
import type { MetricPublic, ParameterPublic } from "@/api";

/** Units as researchers write them ("us" from the API is shown as "µs"). */
export function displayUnit(unit: string | null | undefined): string | undefined {
  if (!unit) return undefined;
  return unit === "us" ? "µs" : unit.replace(/(^|[^a-z])us\b/g, "$1µs");
}

/** The metric-table names of the measured throughput and mean response time, for views that
 * show them beside model quantities (their units come from the served table). */
export const THROUGHPUT_METRIC = "throughput_per_s";
export const RESPONSE_TIME_METRIC = "response_time_us";

/** "X (ops/s)"; just the text while the unit is unknown (the metric table still loading). */
export function withUnit(text: string, unit: string | undefined): string {
  return unit ? `${text} (${unit})` : text;
}

/** The one unit of times in tables, figures and inputs: the metric table's "us", shown as µs
 * (the server's figures print the same, backend/figures/labels.py MICROSECONDS). */
export const TIME_UNIT = "µs";
/** TIME_UNIT per second: the model endpoints answer in seconds. */
export const TIME_UNITS_PER_S = 1e6;

/** Seconds in TIME_UNIT (null stays null: "not measured"). */
export function timeFromSeconds(seconds: number | null | undefined): number | null {
  return seconds === null || seconds === undefined ? null : seconds * TIME_UNITS_PER_S;
}

/** A level as text: booleans as yes / no, numbers and text as they are. */
function valueText(value: unknown): string {
  if (typeof value === "boolean") return value ? "yes" : "no";
  return typeof value === "string" ? value : JSON.stringify(value);
}

/** What a name the schema does not know reads as: its words. */
const words = (name: string) => name.replaceAll("_", " ");

/** A lookup of labels and units by parameter name; unknown names read with spaces. */
export interface ParameterLabels {
  /** In running text: "worker threads", "value size (bytes)" (the served label already names
   * its unit where the words do not). */
  label: (name: string) => string;
  /** Column heading, select option, axis title: "Worker threads", the server's title (one
   * capitalisation rule, backend/figures/labels.py sentence_case), as its figures print it. */
  title: (name: string) => string;
  unit: (name: string) => string | undefined;
  /** One level in words, from the served legend: "8 worker threads", "SET:GET 1:9". */
  text: (name: string, value: unknown) => string;
  /** Several levels, e.g. a configuration: "8 worker threads, 2 clients per thread". */
  values: (values: Record<string, unknown>) => string;
}

export function parameterLabels(
  parameters: readonly ParameterPublic[] | undefined,
): ParameterLabels {
  const byName = new Map((parameters ?? []).map((p) => [p.name, p]));
  const text = (name: string, value: unknown) => {
    const p = byName.get(name);
    const v = valueText(value);
    if (!p) return `${words(name)} ${v}`;
    // The plural rule of the server's legends (backend/figures/labels.py level_label).
    const plural = value === 1 ? "" : "s";
    return p.legend.replaceAll("{v}", v).replaceAll("{s}", plural);
  };
  return {
    label: (name) => byName.get(name)?.label ?? words(name),
    title: (name) => byName.get(name)?.title ?? words(name),
    unit: (name) => displayUnit(byName.get(name)?.unit),
    text,
    values: (values) =>
      Object.entries(values)
        .map(([k, v]) => text(k, v))
        .join(", ") || "all",
  };
}

/** A lookup of the metric table's labels and units; unknown names read with spaces. */
export interface MetricLabels {
  /** In running text: "99th percentile response time" */
  label: (name: string) => string;
  /** Column heading, select option, axis title: "99th percentile response time (µs)" with a
   * capital first letter, the server's title and unit as its figures print them. */
  title: (name: string) => string;
  /** "µs" */
  unit: (name: string) => string | undefined;
  /** "99th percentile response time (µs)": a column heading or an axis title. */
  heading: (name: string) => string;
}

export function metricLabels(metrics: readonly MetricPublic[] | undefined): MetricLabels {
  const byName = new Map((metrics ?? []).map((m) => [m.name, m]));
  const label = (name: string) => byName.get(name)?.label ?? words(name);
  const unit = (name: string) => displayUnit(byName.get(name)?.unit);
  return {
    label,
    unit,
    title: (name) => {
      const t = byName.get(name)?.title ?? words(name);
      const u = unit(name);
      return u ? `${t} (${u})` : t;
    },
    heading: (name) => {
      const u = unit(name);
      return u ? `${label(name)} (${u})` : label(name);
    },
  };
}
