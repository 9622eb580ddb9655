// Shaping for the Models tab: what-if edits over the estimated inputs, the solve request, and
// the Plotly traces of model curves over measured points (times shown in ms).
import type { Data } from "plotly.js";
import type {
  MeasuredPointPublic,
  NetworkGroupPublic,
  NetworkModelPublic,
  NetworkModelRequest,
  QueueModelRowPublic,
  SystemConfigIn,
} from "@/api";
import type { WhatIfEdits } from "../urlState";

/** One editable input: its what-if key, the system field it sets, and how it is shown. */
export interface InputSpec {
  key: keyof WhatIfEdits;
  field: keyof SystemConfigIn;
  label: string;
  unit: string;
  /** Display value = system value x scale (s -> ms). */
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
    key: "delay_ms",
    field: "network_delay_s",
    label: "network delay",
    unit: "ms, one way",
    scale: 1e3,
    integer: false,
  },
  {
    key: "net_ms",
    field: "net_thread_service_s",
    label: "net thread service",
    unit: "ms",
    scale: 1e3,
    integer: false,
  },
  {
    key: "worker_ms",
    field: "worker_service_s",
    label: "worker service",
    unit: "ms, per worker",
    scale: 1e3,
    integer: false,
  },
  {
    key: "server_ms",
    field: "server_service_s",
    label: "memcached service",
    unit: "ms, per visit",
    scale: 1e3,
    integer: false,
  },
  {
    key: "think_ms",
    field: "think_time_s",
    label: "think time Z",
    unit: "ms",
    scale: 1e3,
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

export type FitMetric = "throughput" | "response";

const MEASURED = "#222";
const FITTED = "#1f77b4";
const WHAT_IF = "#d62728";
const BOUND = "#7f7f7f";

function curve(solved: NetworkModelPublic, metric: FitMetric): { x: number[]; y: number[] } {
  const m = solved.model;
  const y = metric === "throughput" ? m.throughput_per_s : m.response_time_s.map((r) => r * 1e3);
  return { x: m.populations, y };
}

/** Measured points with error bars, the fitted curve, the what-if curve and the bound. */
export function fitTraces(
  group: NetworkGroupPublic,
  fitted: NetworkModelPublic | undefined,
  whatIf: NetworkModelPublic | undefined,
  metric: FitMetric,
): Data[] {
  const pts = group.points;
  const measured: Data = {
    type: "scatter",
    mode: "markers",
    name: "measured (mean ± std)",
    x: pts.map((p) => p.clients),
    y: pts.map((p) =>
      metric === "throughput" ? p.throughput_per_s : (p.response_time_s ?? Number.NaN) * 1e3,
    ),
    error_y: {
      type: "data",
      array: pts.map((p) =>
        metric === "throughput"
          ? (p.throughput_std_per_s ?? 0)
          : (p.response_time_std_s ?? 0) * 1e3,
      ),
      visible: true,
      thickness: 1.2,
      width: 4,
    },
    marker: { color: MEASURED, size: 8 },
  };
  const out: Data[] = [measured];
  if (fitted) {
    out.push({
      type: "scatter",
      mode: "lines",
      name: "MVA, inputs from the data",
      ...curve(fitted, metric),
      line: { color: FITTED, width: 2 },
    });
    const b = fitted.model.bounds;
    if (b) {
      out.push({
        type: "scatter",
        mode: "lines",
        name: `asymptotic bound (bottleneck: ${b.bottleneck})`,
        x: b.populations,
        y:
          metric === "throughput"
            ? b.aba_throughput_upper
            : b.aba_response_lower_s.map((r) => r * 1e3),
        line: { color: BOUND, dash: "dot", width: 1.5 },
      });
    }
  }
  if (whatIf) {
    out.push({
      type: "scatter",
      mode: "lines",
      name: "MVA, what-if",
      ...curve(whatIf, metric),
      line: { color: WHAT_IF, dash: "dash", width: 2 },
    });
  }
  return out;
}

export type QueueQuantity = "queue_length" | "waiting_time_s" | "response_time_s";

export const QUEUE_QUANTITIES: {
  key: QueueQuantity;
  label: string;
  unit: string;
  scale: number;
}[] = [
  { key: "response_time_s", label: "response time E[r]", unit: "ms", scale: 1e3 },
  { key: "waiting_time_s", label: "waiting time E[w]", unit: "ms", scale: 1e3 },
  { key: "queue_length", label: "queue length E[nq]", unit: "requests", scale: 1 },
];

const QUEUE_SPECS = Object.fromEntries(QUEUE_QUANTITIES.map((q) => [q.key, q])) as Record<
  QueueQuantity,
  (typeof QUEUE_QUANTITIES)[number]
>;

/** A label for a configuration: its factor values besides the clients, in words
 * (ParameterLabels.values: "8 worker threads, 2 middlewares"). */
export function configLabel(
  values: Record<string, unknown>,
  skip: string[],
  valuesText: (values: Record<string, unknown>) => string,
): string {
  return valuesText(Object.fromEntries(Object.entries(values).filter(([k]) => !skip.includes(k))));
}

/** Predicted (M/M/1, M/M/m) and measured values of one quantity against clients N. */
export function queueTraces(rows: QueueModelRowPublic[], quantity: QueueQuantity): Data[] {
  const spec = QUEUE_SPECS[quantity];
  const sorted = [...rows].sort((a, b) => a.clients - b.clients);
  const pick = (f: (r: QueueModelRowPublic) => number | null | undefined) =>
    sorted.map((r) => {
      const v = f(r);
      return v === null || v === undefined ? Number.NaN : v * spec.scale;
    });
  const x = sorted.map((r) => r.clients);
  return [
    {
      type: "scatter",
      mode: "markers",
      name: "measured",
      x,
      y: pick((r) => r.mmm?.[quantity].measured ?? r.mm1?.[quantity].measured),
      marker: { color: MEASURED, size: 8 },
    },
    {
      type: "scatter",
      mode: "lines+markers",
      name: "M/M/1",
      x,
      y: pick((r) => r.mm1?.[quantity].predicted),
      line: { color: "#ff7f0e" },
    },
    {
      type: "scatter",
      mode: "lines+markers",
      name: "M/M/m",
      x,
      y: pick((r) => r.mmm?.[quantity].predicted),
      line: { color: FITTED },
    },
  ];
}
