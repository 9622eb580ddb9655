// A latency-SLO search as the design form edits it, and its conversion to the request's
// slo_search. Each number is kept as typed: "" leaves the field out, so the server's default
// applies (the preview serves it back as the placeholder); the target is typed in ms.
import type { SloSearchSpec } from "@/api";

export const SLO_NUMBER_KEYS = [
  "percentile",
  "confidence",
  "start_rate",
  "max_rate",
  "resolution_pct",
  "max_repeats",
  "confirm_repeats",
  "max_probes",
  "min_delivered",
] as const;
export type SloNumberKey = (typeof SLO_NUMBER_KEYS)[number];

export interface SloForm extends Record<SloNumberKey, string> {
  statistic: NonNullable<SloSearchSpec["statistic"]>;
  /** The objective's bound in ms, as typed (the request's target_us is in us). */
  target_ms: string;
}

/** A search the user just switched to: only the target to type. */
export const NEW_SEARCH: SloForm = {
  statistic: "percentile",
  target_ms: "",
  ...(Object.fromEntries(SLO_NUMBER_KEYS.map((k) => [k, ""])) as Record<SloNumberKey, string>),
};

/** A typed number, or the text as typed (the server's 422 names the field); undefined: "". */
function typed(text: string): number | string | undefined {
  const t = text.trim();
  if (t === "") return undefined;
  return Number.isFinite(Number(t)) ? Number(t) : t;
}

/** The request's slo_search (loosely typed where the user typed text, so the 422 says why). */
export function toSloSearch(form: SloForm): SloSearchSpec {
  const target = typed(form.target_ms);
  const out: Record<string, unknown> = {
    statistic: form.statistic,
    // ms -> us; rounded to a microsecond so 0.1 ms is 100, not 100.00000000000001.
    target_us: typeof target === "number" ? Math.round(target * 1000 * 1000) / 1000 : target,
  };
  for (const k of SLO_NUMBER_KEYS) {
    const v = typed(form[k]);
    if (v !== undefined) out[k] = v;
  }
  return out as SloSearchSpec;
}

/** The form of a stored search (every field stored, defaults included). */
export function fromSloSearch(spec: Record<string, unknown>): SloForm {
  const text = (v: unknown) => (v === undefined || v === null ? "" : String(v));
  return {
    statistic: spec.statistic === "mean" ? "mean" : "percentile",
    target_ms: typeof spec.target_us === "number" ? String(spec.target_us / 1000) : "",
    ...(Object.fromEntries(SLO_NUMBER_KEYS.map((k) => [k, text(spec[k])])) as Record<
      SloNumberKey,
      string
    >),
  };
}
