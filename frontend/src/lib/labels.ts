// Human labels for parameters and units. The one source is the parameter schema served by
// /parameters (its descriptions and units); everything the UI shows about a parameter derives
// from it here.
import type { ParameterPublic } from "@/api";

/** Units as researchers write them ("us" from the API is shown as "µs"). */
export function displayUnit(unit: string | null | undefined): string | undefined {
  if (!unit) return undefined;
  return unit === "us" ? "µs" : unit.replace(/(^|[^a-z])us\b/g, "$1µs");
}

/**
 * A short label from a parameter's description, without parenthetical notes and without what
 * follows ": " ("virtual clients (connections) per thread" -> "virtual clients per thread";
 * "SET:GET request ratio" and "middleware worker threads" stay).
 */
export function parameterLabel(parameter: Pick<ParameterPublic, "name" | "description">): string {
  const short = parameter.description
    .replace(/\s*\([^)]*\)/g, "")
    .split(": ")[0]
    ?.trim();
  return short || parameter.name.replaceAll("_", " ");
}

/**
 * Whether a label already says what its unit counts ("memcached servers" and unit "servers",
 * "middleware instances" and "middlewares"): then printing the unit again adds nothing.
 */
function labelNamesUnit(label: string, unit: string): boolean {
  const stem = unit.toLowerCase().replace(/s$/, "");
  return label
    .toLowerCase()
    .split(/[^a-z]+/)
    .some((word) => word !== "" && word.startsWith(stem));
}

/** A parameter's value as text: booleans as yes / no, numbers and text as they are. */
function valueText(value: unknown): string {
  if (typeof value === "boolean") return value ? "yes" : "no";
  return typeof value === "string" ? value : JSON.stringify(value);
}

/** A lookup of labels and units by parameter name; unknown names read with spaces. */
export interface ParameterLabels {
  label: (name: string) => string;
  unit: (name: string) => string | undefined;
  /** A column header: "value size (bytes)", "memcached servers" (the label names its unit). */
  heading: (name: string) => string;
  /** One value in words: "value size 128 bytes", "memcached servers 3", "sharded yes". */
  text: (name: string, value: unknown) => string;
}

export function parameterLabels(
  parameters: readonly ParameterPublic[] | undefined,
): ParameterLabels {
  const byName = new Map((parameters ?? []).map((p) => [p.name, p]));
  const label = (name: string) => {
    const p = byName.get(name);
    return p ? parameterLabel(p) : name.replaceAll("_", " ");
  };
  const unit = (name: string) => displayUnit(byName.get(name)?.unit);
  /** The unit worth printing next to the label, if any. */
  const extraUnit = (name: string) => {
    const u = unit(name);
    return u && !labelNamesUnit(label(name), u) ? u : undefined;
  };
  return {
    label,
    unit,
    heading: (name) => {
      const u = extraUnit(name);
      return u ? `${label(name)} (${u})` : label(name);
    },
    text: (name, value) => {
      const u = extraUnit(name);
      return `${label(name)} ${valueText(value)}${u ? ` ${u}` : ""}`;
    },
  };
}
