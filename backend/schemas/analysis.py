"""Analysis request and response schemas; units are in field names (_s, _us, _per_s) and `units`.

One file for the analysis resource's many small models (over 400 lines): splitting it by
model would scatter pairs of request and response that are read together.
"""

from typing import Any, Literal

from pydantic import BaseModel, Field

from backend.analysis.mva.network import StationKind
from backend.analysis.mva.whatif import SweepParameter

PositiveRate = Field(gt=0, allow_inf_nan=False)
Percentiles = Field(default=(50.0, 90.0, 95.0, 99.0), min_length=1, max_length=20)

TIME_UNITS = {"_s": "s", "_s2": "s^2", "_us": "us", "_per_s": "1/s", "_percent": "%"}


class Units(BaseModel):
    """Base for responses: `units` maps unit-bearing fields to their unit."""

    units: dict[str, str] = Field(default_factory=dict)


# --- queues -------------------------------------------------------------------------------


class MM1Request(BaseModel):
    arrival_rate_per_s: float = PositiveRate
    service_rate_per_s: float = PositiveRate
    percentiles: tuple[float, ...] = Percentiles


class MMmRequest(MM1Request):
    servers: int = Field(ge=1, le=100_000)


class PercentilePublic(BaseModel):
    q: float
    value_s: float


class MM1Public(Units):
    arrival_rate_per_s: float
    service_rate_per_s: float
    utilization: float
    p0: float
    mean_jobs: float
    var_jobs: float
    mean_queued: float
    var_queued: float
    mean_response_s: float
    var_response_s2: float
    mean_wait_s: float
    var_wait_s2: float
    mean_jobs_per_busy_period: float
    var_jobs_per_busy_period: float
    mean_busy_period_s: float
    var_busy_period_s2: float
    response_percentiles: list[PercentilePublic]
    wait_percentiles: list[PercentilePublic]


class MMmPublic(Units):
    arrival_rate_per_s: float
    service_rate_per_s: float
    servers: int
    utilization: float
    p0: float
    prob_queueing: float
    mean_jobs: float
    var_jobs: float
    mean_queued: float
    var_queued: float
    mean_response_s: float
    var_response_s2: float
    mean_wait_s: float
    var_wait_s2: float
    mean_busy_servers: float
    wait_percentiles: list[PercentilePublic]


# --- MVA ----------------------------------------------------------------------------------


class StationIn(BaseModel):
    name: str = Field(min_length=1, max_length=64)
    kind: StationKind
    service_time_s: float = Field(ge=0, allow_inf_nan=False)
    visits: float = Field(default=1.0, ge=0, allow_inf_nan=False)
    servers: int = Field(default=1, ge=1, le=4096)


class MvaRequest(BaseModel):
    stations: list[StationIn] = Field(min_length=1, max_length=200)
    population: int = Field(ge=1, le=20_000)
    think_time_s: float = Field(default=0.0, ge=0, allow_inf_nan=False)
    include_bounds: bool = False


class StationCurvesPublic(BaseModel):
    name: str
    kind: StationKind
    servers: int
    visits: float
    service_time_s: float
    demand_s: float
    throughput_per_s: list[float]
    utilization_per_server: list[float]
    prob_busy: list[float] | None
    residence_time_s: list[float]
    queue_length: list[float]


class BoundsPublic(Units):
    populations: list[int]
    bottleneck: str
    total_demand_s: float
    max_demand_s: float
    think_time_s: float
    knee_population: float
    aba_throughput_upper: list[float]
    aba_throughput_lower: list[float]
    aba_response_lower_s: list[float]
    aba_response_upper_s: list[float]
    bjb_throughput_upper: list[float] | None
    bjb_throughput_lower: list[float] | None
    bjb_response_lower_s: list[float] | None
    bjb_response_upper_s: list[float] | None


class MvaPublic(Units):
    populations: list[int]
    think_time_s: float
    throughput_per_s: list[float]
    response_time_s: list[float]
    bottleneck: str
    stations: list[StationCurvesPublic]
    bounds: BoundsPublic | None = None


class ClassIn(BaseModel):
    name: str = Field(min_length=1, max_length=64)
    population: int = Field(ge=0, le=5000)
    think_time_s: float = Field(default=0.0, ge=0, allow_inf_nan=False)
    demands_s: list[float] = Field(min_length=1, max_length=200)


class MultiClassRequest(BaseModel):
    stations: list[StationIn] = Field(min_length=1, max_length=200)
    classes: list[ClassIn] = Field(min_length=1, max_length=8)


class MultiClassPublic(Units):
    class_names: list[str]
    station_names: list[str]
    throughput_per_s: list[float]
    response_time_s: list[float]
    residence_time_s: list[list[float]]
    queue_length: list[list[float]]
    utilization: list[list[float]]
    prob_busy: list[float | None]


class WhatIfRequest(BaseModel):
    stations: list[StationIn] = Field(min_length=1, max_length=200)
    population: int = Field(ge=1, le=20_000)
    think_time_s: float = Field(default=0.0, ge=0, allow_inf_nan=False)
    parameter: SweepParameter
    station: str | None = None
    values: list[float] = Field(min_length=1, max_length=200)


class WhatIfPublic(Units):
    parameter: SweepParameter
    station: str | None
    values: list[float]
    throughput_per_s: list[float]
    response_time_s: list[float]
    utilization_per_server: list[list[float]]
    queue_length: list[list[float]]
    station_names: list[str]


class SystemConfigIn(BaseModel):
    servers: int = Field(ge=1, le=64)
    middlewares: int = Field(ge=1, le=8)
    workers: int = Field(ge=1, le=4096)
    network_delay_s: float = Field(ge=0, allow_inf_nan=False)
    net_thread_service_s: float = Field(ge=0, allow_inf_nan=False)
    worker_service_s: float = Field(gt=0, allow_inf_nan=False)
    server_service_s: float = Field(gt=0, allow_inf_nan=False)
    write_fraction: float = Field(default=0.0, ge=0, le=1)
    replication: int = Field(default=1, ge=1, le=64)
    think_time_s: float = Field(default=0.0, ge=0, allow_inf_nan=False)


class NetworkModelRequest(BaseModel):
    system: SystemConfigIn
    clients: list[int] = Field(min_length=1, max_length=500)
    measured_throughput_per_s: list[float] = Field(min_length=1, max_length=500)
    measured_response_time_s: list[float | None] | None = None


class ModelRowPublic(BaseModel):
    clients: int
    measured_throughput_per_s: float
    model_throughput_per_s: float
    throughput_deviation_percent: float
    measured_response_time_s: float | None
    model_response_time_s: float
    response_deviation_percent: float | None


class NetworkModelPublic(Units):
    rows: list[ModelRowPublic]
    model: MvaPublic


# --- factorial ----------------------------------------------------------------------------


class FactorialRequest(BaseModel):
    factors: list[str] = Field(min_length=2, max_length=6)
    y: list[list[float]] = Field(min_length=4, max_length=64)
    confidence: float | None = Field(default=0.90, gt=0, lt=1)
    multiplicative: bool = False


class EffectPublic(BaseModel):
    name: str
    factors: list[str]
    value: float
    sum_of_squares: float
    variation_percent: float
    ci_low: float | None
    ci_high: float | None
    significant: bool | None


class LenthPublic(BaseModel):
    pse: float
    margin_of_error: float
    simultaneous_margin: float
    half_normal_names: list[str]
    half_normal_abs_effects: list[float]
    half_normal_quantiles: list[float]


class FactorialPublic(Units):
    factors: list[str]
    levels: dict[str, list[Any]] | None = None
    replications: int
    multiplicative: bool
    sign_table: list[list[int]]
    effects: list[EffectPublic]
    sst: float
    sse: float
    error_percent: float
    error_variance: float | None
    effect_std: float | None
    confidence: float | None
    cell_means: list[float]
    predicted: list[list[float]]
    residuals: list[list[float]]
    qq_residuals: list[float]
    qq_normal_quantiles: list[float]
    lenth: LenthPublic | None
    main_effects: dict[str, list[float]]
    interactions: dict[str, list[float]]


# --- statistics, percentiles, laws --------------------------------------------------------


class RepetitionsRequest(BaseModel):
    values: list[float] = Field(min_length=1, max_length=100_000)
    confidence: float | None = Field(default=0.95, gt=0, lt=1)


class ConfidenceIntervalPublic(BaseModel):
    level: float
    mean: float
    low: float
    high: float
    half_width: float
    dof: int


class RepetitionsPublic(BaseModel):
    n: int
    mean: float
    std: float | None
    ci: ConfidenceIntervalPublic | None


class InstancesRequest(BaseModel):
    throughput_means_per_s: list[float] = Field(min_length=1, max_length=1000)
    throughput_stds_per_s: list[float] = Field(min_length=1, max_length=1000)
    response_means_us: list[float] = Field(min_length=1, max_length=1000)
    response_stds_us: list[float] = Field(min_length=1, max_length=1000)


class InstancesPublic(Units):
    throughput_per_s: float
    throughput_std_per_s: float
    response_time_us: float
    response_time_std_us: float


class HistogramIn(BaseModel):
    upper_bounds_us: list[float] = Field(min_length=1, max_length=100_000)
    counts: list[float] = Field(min_length=1, max_length=100_000)
    overflow: float = Field(default=0.0, ge=0)


class HistogramRequest(BaseModel):
    histograms: list[HistogramIn] = Field(min_length=1, max_length=1000)
    percentiles: tuple[float, ...] = Percentiles
    rebin_upper_bounds_us: list[float] | None = Field(default=None, max_length=100_000)


class HistogramPercentilePublic(BaseModel):
    q: float
    value_us: float
    in_overflow: bool


class HistogramPublic(Units):
    upper_bounds_us: list[float]
    counts: list[float]
    overflow: float
    total: float
    percentiles: list[HistogramPercentilePublic]


class SamplesRequest(BaseModel):
    samples_us: list[float] = Field(min_length=1, max_length=1_000_000)
    percentiles: tuple[float, ...] = Percentiles


class SamplesPublic(Units):
    percentiles: list[float]
    values_us: list[float]


class InteractiveRequest(BaseModel):
    clients: float = Field(gt=0)
    response_time_s: float = Field(ge=0, allow_inf_nan=False)
    think_time_s: float = Field(default=0.0, ge=0, allow_inf_nan=False)
    measured_throughput_per_s: float = Field(gt=0, allow_inf_nan=False)


class InteractivePublic(Units):
    clients: float
    response_time_s: float
    think_time_s: float
    expected_throughput_per_s: float
    measured_throughput_per_s: float
    deviation_percent: float


class LittleRequest(BaseModel):
    measured_length: float = Field(ge=0, allow_inf_nan=False)
    throughput_per_s: float = Field(ge=0, allow_inf_nan=False)
    time_s: float = Field(ge=0, allow_inf_nan=False)


class LittlePublic(Units):
    measured_length: float
    throughput_per_s: float
    time_s: float
    predicted_length: float
    deviation_percent: float | None


class UtilizationRequest(BaseModel):
    throughput_per_s: float = Field(ge=0, allow_inf_nan=False)
    service_time_s: float = Field(ge=0, allow_inf_nan=False)
    servers: int = Field(default=1, ge=1, le=100_000)


class UtilizationPublic(Units):
    utilization: float


class SeriesIn(BaseModel):
    label: str = Field(min_length=1, max_length=64)
    resource: float
    loads: list[float] = Field(min_length=1, max_length=1000)
    throughputs_per_s: list[float] = Field(min_length=1, max_length=1000)


class SaturationRequest(BaseModel):
    series: list[SeriesIn] = Field(min_length=1, max_length=100)
    fraction: float = Field(default=0.95, gt=0, le=1)


class KneePublic(BaseModel):
    label: str
    max_throughput_per_s: float
    load_at_max: float
    knee_load: float
    knee_throughput_per_s: float


class SaturationPublic(Units):
    fraction: float
    knees: list[KneePublic]
    global_max_per_s: float
    best_label: str
    best_resource: float
    best_load: float
    best_throughput_per_s: float


class BreakdownRequest(BaseModel):
    client_response_us: float = Field(gt=0, allow_inf_nan=False)
    middleware_response_us: float = Field(ge=0, allow_inf_nan=False)
    queue_us: float = Field(ge=0, allow_inf_nan=False)
    server_us: float = Field(ge=0, allow_inf_nan=False)


class BreakdownPublic(Units):
    client_response_us: float
    middleware_response_us: float
    queue_us: float
    server_us: float
    processing_us: float
    network_us: float


class RelativeRequest(BaseModel):
    values: dict[str, float] = Field(min_length=1, max_length=1000)
    base: str


class RelativeRowPublic(BaseModel):
    label: str
    value: float
    base_value: float
    difference_percent: float


class RelativePublic(Units):
    rows: list[RelativeRowPublic]


SourceKind = Literal["client", "middleware"]


# --- stored experiments -------------------------------------------------------------------


class ConfigStatPublic(BaseModel):
    configuration_id: int
    index: int
    values: dict[str, Any]
    repetitions: int
    mean: float | None
    std: float | None
    ci_low: float | None
    ci_high: float | None


class ExperimentSummaryPublic(Units):
    metric: str
    unit: str
    source: SourceKind
    confidence: float | None
    data: list[ConfigStatPublic]


class ConfigRef(BaseModel):
    configuration_id: int
    index: int
    values: dict[str, Any]


class BreakdownRowPublic(ConfigRef):
    client_response_us: float
    middleware_response_us: float
    queue_us: float
    server_us: float
    processing_us: float
    network_us: float


class ExperimentBreakdownPublic(Units):
    data: list[BreakdownRowPublic]


class InteractiveRowPublic(ConfigRef):
    clients: int
    response_time_s: float
    measured_throughput_per_s: float
    expected_throughput_per_s: float
    deviation_percent: float


class ExperimentInteractivePublic(Units):
    think_time_s: float
    think_time_estimated: bool
    data: list[InteractiveRowPublic]


class RelativeConfigRowPublic(ConfigRef):
    value: float
    base_value: float
    difference_percent: float


class ExperimentRelativePublic(Units):
    metric: str
    unit: str
    factor: str
    base: str
    data: list[RelativeConfigRowPublic]


class ServiceTimesIn(BaseModel):
    """Measured service times the network model needs (the grid supplies the rest)."""

    network_delay_s: float = Field(ge=0, allow_inf_nan=False)
    net_thread_service_s: float = Field(ge=0, allow_inf_nan=False)
    worker_service_s: float = Field(gt=0, allow_inf_nan=False)
    server_service_s: float = Field(gt=0, allow_inf_nan=False)
    think_time_s: float = Field(default=0.0, ge=0, allow_inf_nan=False)


class ModelGroupPublic(BaseModel):
    group: dict[str, Any]
    rows: list[ModelRowPublic]


class ExperimentModelPublic(Units):
    data: list[ModelGroupPublic]


class LittleRowPublic(ConfigRef):
    measured_length: float
    throughput_per_s: float
    time_s: float
    predicted_length: float
    deviation_percent: float | None


class ExperimentLittlePublic(Units):
    data: list[LittleRowPublic]
