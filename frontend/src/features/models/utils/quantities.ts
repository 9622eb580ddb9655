// Showing model outputs: times in the API are seconds, shown in TIME_UNIT (µs) as everywhere.
import { TIME_UNIT, TIME_UNITS_PER_S } from "@/lib/labels";

export interface Quantity {
  label: string;
  value: string;
  unit: string;
}

const LABELS: Record<string, string> = {
  utilization: "utilization ρ",
  p0: "P(no job) p0",
  prob_queueing: "P(queueing)",
  mean_jobs: "E[n] jobs in system",
  var_jobs: "Var[n]",
  mean_queued: "E[nq] jobs queued",
  var_queued: "Var[nq]",
  mean_response_s: "E[r] response time",
  var_response_s2: "Var[r]",
  mean_wait_s: "E[w] waiting time",
  var_wait_s2: "Var[w]",
  mean_busy_servers: "busy servers",
  mean_jobs_per_busy_period: "jobs per busy period",
  var_jobs_per_busy_period: "Var[jobs per busy period]",
  mean_busy_period_s: "busy period",
  var_busy_period_s2: "Var[busy period]",
};

function fixed(value: number, digits: number): string {
  return value.toLocaleString("en-US", {
    maximumFractionDigits: digits,
    minimumFractionDigits: digits,
  });
}

/** One model output: seconds become µs, s² become µs², ratios stay plain. */
export function quantity(field: string, value: number): Quantity {
  const label = LABELS[field] ?? field;
  if (field.endsWith("_s2")) {
    return { label, value: fixed(value * TIME_UNITS_PER_S ** 2, 0), unit: `${TIME_UNIT}²` };
  }
  if (field.endsWith("_per_s")) return { label, value: fixed(value, 2), unit: "1/s" };
  if (field.endsWith("_s")) {
    return { label, value: fixed(value * TIME_UNITS_PER_S, 2), unit: TIME_UNIT };
  }
  if (field === "utilization" || field === "prob_queueing") {
    return { label, value: fixed(value * 100, 2), unit: "%" };
  }
  return { label, value: fixed(value, 4), unit: "" };
}

/** The scalar outputs of a model response, in the order of LABELS. */
export function quantities(response: object): Quantity[] {
  const entries = Object.entries(response) as [string, unknown][];
  return Object.keys(LABELS).flatMap((key) => {
    const hit = entries.find(([k]) => k === key);
    return hit && typeof hit[1] === "number" ? [quantity(key, hit[1])] : [];
  });
}

/** Errors of the fields a form shows, and the rest joined for a form-level message. */
export function splitErrors(
  errors: Record<string, string>,
  fields: readonly string[],
): { byField: Record<string, string>; other: string | undefined } {
  const byField: Record<string, string> = {};
  const other: string[] = [];
  for (const [key, msg] of Object.entries(errors)) {
    if (fields.includes(key)) byField[key] = msg;
    else other.push(key ? `${key}: ${msg}` : msg);
  }
  return { byField, other: other.length ? other.join("; ") : undefined };
}
