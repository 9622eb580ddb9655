// The one query key factory: every server-state key is built here, so invalidation is exact.
import type { ExperimentCreate, HistogramMetric, RequestType, RunStatus } from "@/api";

export interface ExperimentListParams {
  skip: number;
  limit: number;
  q?: string;
  template?: string;
}

export type ResultSource = "client" | "middleware";

/** A re-cut measurement window [start, end) in seconds of each run. */
export interface ResultWindow {
  start: number;
  end: number;
}

export const queryKeys = {
  parameters: () => ["parameters"] as const,
  templates: () => ["templates"] as const,
  experiments: {
    all: () => ["experiments"] as const,
    list: (params: ExperimentListParams) => ["experiments", "list", params] as const,
    detail: (id: number) => ["experiments", "detail", id] as const,
    configurations: (id: number) => ["experiments", "detail", id, "configurations"] as const,
    runs: (id: number, status?: RunStatus) =>
      ["experiments", "detail", id, "runs", status ?? "any"] as const,
    results: (id: number, source: ResultSource, requestType: RequestType, window?: ResultWindow) =>
      ["experiments", "detail", id, "results", source, requestType, window ?? "stored"] as const,
    breakdown: (id: number, requestType: RequestType) =>
      ["experiments", "detail", id, "breakdown", requestType] as const,
    interactiveLaw: (id: number, requestType: RequestType) =>
      ["experiments", "detail", id, "interactive-law", requestType] as const,
    factorial: (
      id: number,
      source: ResultSource,
      requestType: RequestType,
      multiplicative: boolean,
    ) => ["experiments", "detail", id, "factorial", source, requestType, multiplicative] as const,
    runSeries: (id: number, runId: number, source: ResultSource, requestType: RequestType) =>
      ["experiments", "detail", id, "runs", runId, "series", source, requestType] as const,
    histogram: (
      id: number,
      configurationId: number,
      source: ResultSource,
      requestType: RequestType,
      metric: HistogramMetric,
    ) =>
      [
        "experiments",
        "detail",
        id,
        "histogram",
        configurationId,
        source,
        requestType,
        metric,
      ] as const,
    percentiles: (
      id: number,
      source: ResultSource,
      requestType: RequestType,
      metric: HistogramMetric,
      percentiles: readonly number[],
    ) =>
      [
        "experiments",
        "detail",
        id,
        "percentiles",
        source,
        requestType,
        metric,
        percentiles,
      ] as const,
    preview: (spec: ExperimentCreate) => ["experiments", "preview", spec] as const,
  },
} as const;
