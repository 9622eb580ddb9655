"""Schemas for statistics, percentiles, operational laws, saturation, breakdowns, comparisons."""

from typing import Annotated, Literal

from pydantic import BaseModel, Field

from backend.schemas.analysis.common import Percentiles, Units
from backend.schemas.base import RequestModel
from backend.schemas.limits import (
    Confidence,
    Jobs,
    Measured,
    Microseconds,
    PositiveMicroseconds,
    PositiveRatePerS,
    RatePerS,
    Resource,
    Seconds,
)


class RepetitionsRequest(RequestModel):
    values: list[Measured] = Field(min_length=1, max_length=100_000)
    confidence: Confidence | None = 0.95


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


class InstancesRequest(RequestModel):
    # Measurable bounds, as every model input: means near 1e308 summed to an infinite
    # throughput, a 500 (found probing what `make fuzz-api` found elsewhere).
    throughput_means_per_s: list[RatePerS] = Field(min_length=1, max_length=1000)
    throughput_stds_per_s: list[RatePerS] = Field(min_length=1, max_length=1000)
    response_means_us: list[Microseconds] = Field(min_length=1, max_length=1000)
    response_stds_us: list[Microseconds] = Field(min_length=1, max_length=1000)


class InstancesPublic(Units):
    throughput_per_s: float
    throughput_std_per_s: float
    response_time_us: float
    response_time_std_us: float


class HistogramIn(RequestModel):
    upper_bounds_us: list[float] = Field(min_length=1, max_length=100_000)
    counts: list[float] = Field(min_length=1, max_length=100_000)
    overflow: float = Field(default=0.0, ge=0)


class HistogramRequest(RequestModel):
    histograms: list[HistogramIn] = Field(min_length=1, max_length=1000)
    percentiles: tuple[float, ...] = Percentiles
    rebin_upper_bounds_us: list[float] | None = Field(default=None, max_length=100_000)


class HistogramPercentilePublic(BaseModel):
    q: float
    value_us: float
    in_overflow: bool
    bound: Literal["below", "above"] | None = Field(
        default=None,
        description='"below": inside the first bucket, value_us is its upper edge (shown '
        '"< value"); "above": in the overflow bucket, value_us is a lower bound',
    )


class HistogramPublic(Units):
    upper_bounds_us: list[float]
    counts: list[float]
    overflow: float
    total: float
    percentiles: list[HistogramPercentilePublic]


class SamplesRequest(RequestModel):
    samples_us: list[float] = Field(min_length=1, max_length=1_000_000)
    percentiles: tuple[float, ...] = Percentiles


class SamplesPublic(Units):
    percentiles: list[float]
    values_us: list[float]


class InteractiveRequest(RequestModel):
    clients: Annotated[Jobs, Field(ge=1)]
    response_time_s: Seconds
    think_time_s: Seconds = 0.0
    measured_throughput_per_s: PositiveRatePerS


class InteractivePublic(Units):
    clients: float
    response_time_s: float
    think_time_s: float
    expected_throughput_per_s: float
    measured_throughput_per_s: float
    deviation_percent: float


class LittleRequest(RequestModel):
    measured_length: Jobs
    throughput_per_s: RatePerS
    time_s: Seconds


class LittlePublic(Units):
    measured_length: float
    throughput_per_s: float
    time_s: float
    predicted_length: float
    deviation_percent: float | None


class UtilizationRequest(RequestModel):
    # Measurable bounds, as every model input: U = X S of two numbers near 1e308 overflowed
    # to an infinite utilization, answered as null (found by the API fuzz test).
    throughput_per_s: RatePerS
    service_time_s: Seconds
    servers: int = Field(default=1, ge=1, le=100_000)


class UtilizationPublic(Units):
    utilization: float


class SeriesIn(RequestModel):
    # Measurable bounds, as every model input: a negative maximum throughput left no load at
    # 95 % of it, a 500 (found by `make fuzz-api`).
    label: str = Field(min_length=1, max_length=64)
    resource: Resource
    loads: list[Jobs] = Field(min_length=1, max_length=1000)
    throughputs_per_s: list[RatePerS] = Field(min_length=1, max_length=1000)


class SaturationRequest(RequestModel):
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


class BreakdownRequest(RequestModel):
    client_response_us: PositiveMicroseconds
    middleware_response_us: Microseconds
    queue_us: Microseconds
    server_us: Microseconds
    round_trip_us: Microseconds | None = None


class BreakdownPublic(Units):
    client_response_us: float
    middleware_response_us: float
    queue_us: float
    server_us: float
    processing_us: float
    network_us: float
    round_trip_us: float | None = None
    rest_us: float | None = None


class RelativeRequest(RequestModel):
    # Measurable bounds, as every model input: 100 (y - x) / x of two values near 1e308
    # overflowed to an infinite difference, answered as a 500 (found by `make fuzz-api`).
    values: dict[str, Measured] = Field(min_length=1, max_length=1000)
    base: str


class RelativeRowPublic(BaseModel):
    label: str
    value: float
    base_value: float
    difference_percent: float


class RelativePublic(Units):
    rows: list[RelativeRowPublic]
