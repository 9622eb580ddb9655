// Inputs of the Models tab: what-if edits over the estimated inputs, the solve request (for
// the summary and table) and the edits as the server's figure parameter (the figures are the
// server's model-throughput, model-response-time and queue-models).
import type { MeasuredPointPublic, NetworkModelRequest, SystemConfigIn } from "@/api";
import { TIME_UNIT, TIME_UNITS_PER_S } from "@/lib/labels";
import type { WhatIfEdits } from "../urlState";

/** One editable input: its what-if key, the system field it sets, and how it is shown. */
export interface InputSpec {
  key: keyof WhatIfEdits;
  field: keyof SystemConfigIn;
  label: string;
  unit: string;
  /** Display value = system value x scale (s -> TIME_UNIT). */
  scale: number;
  integer: boolean;
}

export const INPUTS: InputSpec[] = [
  {
    key: "workers",
    field: "workers",
    label: "workers",
    unit: "per middleware",
    scale: 1,
    integer: true,
  },
  {
    key: "middlewares",
    field: "middlewares",
    label: "middlewares",
    unit: "",
    scale: 1,
    integer: true,
  },
  {
    key: "servers",
    field: "servers",
    label: "memcached servers",
    unit: "",
    scale: 1,
    integer: true,
  },
  {
    key: "delay_us",
    field: "network_delay_s",
    label: "network delay",
    unit: `${TIME_UNIT}, one way`,
    scale: TIME_UNITS_PER_S,
    integer: false,
  },
  {
    key: "net_us",
    field: "net_thread_service_s",
    label: "net thread service",
    unit: TIME_UNIT,
    scale: TIME_UNITS_PER_S,
    integer: false,
  },
  {
    key: "worker_us",
    field: "worker_service_s",
    label: "worker service",
    unit: `${TIME_UNIT}, per worker`,
    scale: TIME_UNITS_PER_S,
    integer: false,
  },
  {
    key: "server_us",
    field: "server_service_s",
    label: "memcached service",
    unit: `${TIME_UNIT}, per visit`,
    scale: TIME_UNITS_PER_S,
    integer: false,
  },
  {
    key: "think_us",
    field: "think_time_s",
    label: "think time Z",
    unit: TIME_UNIT,
    scale: TIME_UNITS_PER_S,
    integer: false,
  },
];

/** The estimated system with every set what-if edit applied (display units converted back). */
export function applyEdits(system: SystemConfigIn, edits: WhatIfEdits): SystemConfigIn {
  const out: SystemConfigIn = { ...system };
  for (const spec of INPUTS) {
    const v = edits[spec.key];
    if (v === null || v === undefined || Number.isNaN(v)) continue;
    (out as unknown as Record<string, number>)[spec.field] = v / spec.scale;
  }
  return out;
}

/** True when any edit differs from the estimate. */
export function hasEdits(system: SystemConfigIn, edits: WhatIfEdits): boolean {
  const edited = applyEdits(system, edits);
  return INPUTS.some((s) => edited[s.field] !== system[s.field]);
}

/** The ad-hoc network-model request for a system over a group's measured points. */
export function networkRequest(
  system: SystemConfigIn,
  points: MeasuredPointPublic[],
): NetworkModelRequest {
  return {
    system,
    clients: points.map((p) => p.clients),
    measured_throughput_per_s: points.map((p) => p.throughput_per_s),
    measured_response_time_s: points.map((p) => p.response_time_s ?? null),
    include_bounds: true,
  };
}

/** The edited inputs that differ from the estimate, as the figures' `what_if=field=value`. */
export function whatIfParams(system: SystemConfigIn, edits: WhatIfEdits): string[] {
  const edited = applyEdits(system, edits);
  return INPUTS.filter((spec) => edited[spec.field] !== system[spec.field]).map(
    (spec) => `${spec.field}=${edited[spec.field]}`,
  );
}

export type QueueQuantity = "queue_length" | "waiting_time_s" | "response_time_s";

/** The quantities the queue-models figure draws, with the server's name of each. */
export const QUEUE_QUANTITIES: {
  key: QueueQuantity;
  label: string;
  figure: "response_time" | "waiting_time" | "queue_length";
}[] = [
  { key: "response_time_s", label: "response time E[r]", figure: "response_time" },
  { key: "waiting_time_s", label: "waiting time E[w]", figure: "waiting_time" },
  { key: "queue_length", label: "queue length E[nq]", figure: "queue_length" },
];

/** A label for a configuration: its factor values besides the clients, in words
 * (ParameterLabels.values: "8 worker threads, 2 middlewares"). */
export function configLabel(
  values: Record<string, unknown>,
  skip: string[],
  valuesText: (values: Record<string, unknown>) => string,
): string {
  return valuesText(Object.fromEntries(Object.entries(values).filter(([k]) => !skip.includes(k))));
}
