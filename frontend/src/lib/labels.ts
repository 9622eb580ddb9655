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

/** A lookup of labels and units by parameter name; unknown names read with spaces. */
export interface ParameterLabels {
  label: (name: string) => string;
  unit: (name: string) => string | undefined;
}

export function parameterLabels(
  parameters: readonly ParameterPublic[] | undefined,
): ParameterLabels {
  const byName = new Map((parameters ?? []).map((p) => [p.name, p]));
  return {
    label: (name) => {
      const p = byName.get(name);
      return p ? parameterLabel(p) : name.replaceAll("_", " ");
    },
    unit: (name) => displayUnit(byName.get(name)?.unit),
  };
}
