"""Mean value analysis, bounds, what-if sweeps and the middleware network model schemas."""

from pydantic import BaseModel, Field

from backend.analysis.mva.network import StationKind
from backend.analysis.mva.whatif import SweepParameter
from backend.schemas.analysis.common import Units


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
