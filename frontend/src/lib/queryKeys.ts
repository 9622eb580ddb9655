// The one query key factory: every server-state key is built here, so invalidation is exact.
import type {
  CompareFigureRequest,
  CompareSelection,
  ConfigurationsRequest,
  DifferencesRequest,
  ExperimentCreate,
  HistogramMetric,
  ImportMapping,
  MvaFigureRequest,
  NetworkModelRequest,
  RequestType,
  RunStatus,
} from "@/api";

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

/** The window part of an analysis request: nothing for the stored window. */
export function windowQuery(window: ResultWindow | null | undefined): {
  window_start_s?: number;
  window_end_s?: number;
} {
  return window ? { window_start_s: window.start, window_end_s: window.end } : {};
}

/** A window as part of a query key. */
function windowKey(window: ResultWindow | null | undefined) {
  return window ? `${window.start}-${window.end}` : "stored";
}

export const queryKeys = {
  parameters: () => ["parameters"] as const,
  metrics: () => ["metrics"] as const,
  designFields: () => ["design-fields"] as const,
  run: (runId: number) => ["runs", runId] as const,
  runFiles: (runId: number) => ["runs", runId, "files"] as const,
  runAttempts: (runId: number) => ["runs", runId, "attempts"] as const,
  runFilePage: (runId: number, path: string, offset: number) =>
    ["runs", runId, "files", path, offset] as const,
  testbeds: {
    all: () => ["testbeds"] as const,
    tools: (testbedId: number) => ["testbeds", testbedId, "tools"] as const,
  },
  azureLabs: {
    all: () => ["azure-labs"] as const,
    defaults: () => ["azure-labs", "defaults"] as const,
    states: () => ["azure-labs", "states"] as const,
  },
  rehearsals: {
    all: () => ["rehearsals"] as const,
  },
  prices: () => ["prices"] as const,
  templates: () => ["templates"] as const,
  experiments: {
    all: () => ["experiments"] as const,
    list: (params: ExperimentListParams) => ["experiments", "list", params] as const,
    detail: (id: number) => ["experiments", "detail", id] as const,
    configurations: (id: number) => ["experiments", "detail", id, "configurations"] as const,
    sloSearch: (id: number) => ["experiments", "detail", id, "slo"] as const,
    runs: (id: number, status?: RunStatus) =>
      ["experiments", "detail", id, "runs", status ?? "any"] as const,
    results: (
      id: number,
      source: ResultSource,
      requestType: RequestType,
      window?: ResultWindow | null,
    ) => ["experiments", "detail", id, "results", source, requestType, windowKey(window)] as const,
    quality: (id: number, window?: ResultWindow | null) =>
      ["experiments", "detail", id, "quality", windowKey(window)] as const,
    machines: (id: number, window?: ResultWindow | null) =>
      ["experiments", "detail", id, "machines", windowKey(window)] as const,
    interactiveLaw: (id: number, requestType: RequestType, window?: ResultWindow | null) =>
      ["experiments", "detail", id, "interactive-law", requestType, windowKey(window)] as const,
    factorial: (
      id: number,
      source: ResultSource,
      requestType: RequestType,
      multiplicative: boolean,
      window?: ResultWindow | null,
    ) =>
      [
        "experiments",
        "detail",
        id,
        "factorial",
        source,
        requestType,
        multiplicative,
        windowKey(window),
      ] as const,
    runSeries: (id: number, runId: number, source: ResultSource, requestType: RequestType) =>
      ["experiments", "detail", id, "runs", runId, "series", source, requestType] as const,
    histogram: (
      id: number,
      configurationId: number,
      source: ResultSource,
      requestType: RequestType,
      metric: HistogramMetric,
      window?: ResultWindow | null,
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
        windowKey(window),
      ] as const,
    percentiles: (
      id: number,
      source: ResultSource,
      requestType: RequestType,
      metric: HistogramMetric,
      percentiles: readonly number[],
      window?: ResultWindow | null,
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
        windowKey(window),
      ] as const,
    preview: (spec: ExperimentCreate, power: object = {}) =>
      ["experiments", "preview", spec, power] as const,
    queueModels: (
      id: number,
      requestType: RequestType,
      serviceRate: string,
      window?: ResultWindow | null,
    ) =>
      [
        "experiments",
        "detail",
        id,
        "queue-models",
        requestType,
        serviceRate,
        windowKey(window),
      ] as const,
    bottlenecks: (
      id: number,
      requestType: RequestType,
      utilization: number | null,
      window?: ResultWindow | null,
    ) =>
      [
        "experiments",
        "detail",
        id,
        "bottlenecks",
        requestType,
        utilization,
        windowKey(window),
      ] as const,
    networkInputs: (
      id: number,
      requestType: RequestType,
      utilization: number | null,
      window?: ResultWindow | null,
    ) =>
      [
        "experiments",
        "detail",
        id,
        "network-inputs",
        requestType,
        utilization ?? "none",
        windowKey(window),
      ] as const,
    demandModels: (id: number) => ["experiments", "detail", id, "demand-models"] as const,
    report: (id: number) => ["experiments", "detail", id, "report"] as const,
    figureList: (id: number) => ["experiments", "detail", id, "figure-list"] as const,
    tableList: (id: number) => ["experiments", "detail", id, "table-list"] as const,
    /** A server figure's Plotly JSON for one selection. */
    figure: (id: number, name: string, params: Record<string, unknown>) =>
      ["experiments", "detail", id, "figure", name, params] as const,
    table: (id: number, name: string, params: Record<string, unknown>) =>
      ["experiments", "detail", id, "table", name, params] as const,
  },
  models: {
    /** A solved network: a pure computation keyed by its whole request. */
    network: (body: NetworkModelRequest) => ["models", "network", body] as const,
    /** A calculator's figure: a pure drawing of its whole request. */
    figure: (name: string, body: MvaFigureRequest) => ["models", "figure", name, body] as const,
  },
  compare: {
    parameters: (sel: CompareSelection) => ["compare", "parameters", sel] as const,
    differences: (req: DifferencesRequest) => ["compare", "differences", req] as const,
    configurations: (req: ConfigurationsRequest) => ["compare", "configurations", req] as const,
    figure: (name: string, body: CompareFigureRequest) =>
      ["compare", "figure", name, body] as const,
  },
  views: {
    all: () => ["views"] as const,
    list: () => ["views", "list"] as const,
  },
  imports: {
    preview: (upload: string, mapping: ImportMapping) =>
      ["imports", upload, "preview", mapping] as const,
  },
} as const;
