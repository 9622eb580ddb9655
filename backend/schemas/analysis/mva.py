"""Mean value analysis, bounds, what-if sweeps and the middleware network model schemas."""

from typing import Literal

from pydantic import BaseModel, Field, ValidationInfo, field_validator

from backend.analysis.mva.network import SERVERS_ONLY_MULTI, StationKind
from backend.analysis.mva.whatif import SweepParameter
from backend.schemas.analysis.common import Units
from backend.schemas.analysis.model_fit import FitPublic
from backend.schemas.base import RequestModel
from backend.schemas.figure import FigureOutput
from backend.schemas.limits import Seconds, Visits


class StationIn(RequestModel):
    """One service center of a closed network."""

    name: str = Field(min_length=1, max_length=64)
    kind: StationKind
    service_time_s: Seconds
    visits: Visits = 1.0
    servers: int = Field(default=1, ge=1, le=4096)

    @field_validator("servers")
    @classmethod
    def servers_only_for_multi(cls, v: int, info: ValidationInfo) -> int:
        kind = info.data.get("kind")
        if kind is not None and kind is not StationKind.MULTI and v != 1:
            raise ValueError(SERVERS_ONLY_MULTI.format(kind=kind.value))
        return v


class MvaRequest(RequestModel):
    stations: list[StationIn] = Field(min_length=1, max_length=200)
    population: int = Field(ge=1, le=20_000)
    think_time_s: Seconds = 0.0
    include_bounds: bool = False


class MvaFigureRequest(MvaRequest, FigureOutput):
    """The MVA calculator's figure: the network as /analysis/mva takes it, then the file's
    size and style (the figure draws exactly what that endpoint answers for the network)."""


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


class StationAtPublic(BaseModel):
    """One station's figures at the requested population."""

    name: str
    kind: StationKind
    servers: int
    throughput_per_s: float
    utilization_per_server: float
    prob_busy: float | None
    residence_time_s: float
    queue_length: float


class MvaAtPublic(BaseModel):
    """The answer at the requested population N, without reading the curves' last element."""

    population: int
    throughput_per_s: float
    response_time_s: float
    stations: list[StationAtPublic]


class MvaPublic(Units):
    at_population: MvaAtPublic
    populations: list[int]
    think_time_s: float
    throughput_per_s: list[float]
    response_time_s: list[float]
    bottleneck: str
    stations: list[StationCurvesPublic]
    bounds: BoundsPublic | None = None


class ClassIn(RequestModel):
    name: str = Field(min_length=1, max_length=64)
    population: int = Field(ge=0, le=5000)
    think_time_s: Seconds = 0.0
    # Measurable bounds, as every model input: a demand of 1e308 or 5e-324 left the model's
    # results outside double range, a 500 (found probing what `make fuzz-api` found elsewhere).
    demands_s: list[Seconds] = Field(min_length=1, max_length=200)


class MultiClassRequest(RequestModel):
    stations: list[StationIn] = Field(min_length=1, max_length=200)
    classes: list[ClassIn] = Field(min_length=1, max_length=8)
    method: Literal["exact", "approximate", "auto"] = Field(
        default="auto",
        description="exact: MVA over the whole population lattice; approximate: "
        "Bard-Schweitzer fixed point (with Seidmann's m-server decomposition), for populations "
        "the lattice cannot reach; auto: exact when within its work budget, else approximate",
    )


class MultiClassPublic(Units):
    class_names: list[str]
    station_names: list[str]
    throughput_per_s: list[float]
    response_time_s: list[float]
    residence_time_s: list[list[float]]
    queue_length: list[list[float]]
    utilization: list[list[float]]
    prob_busy: list[float | None]
    method: Literal["exact", "approximate"]
    iterations: int | None


class WhatIfRequest(RequestModel):
    stations: list[StationIn] = Field(min_length=1, max_length=200)
    population: int = Field(ge=1, le=20_000)
    think_time_s: Seconds = 0.0
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


class SystemConfigIn(RequestModel):
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


class NetworkModelRequest(RequestModel):
    system: SystemConfigIn
    clients: list[int] = Field(min_length=1, max_length=500)
    measured_throughput_per_s: list[float] = Field(min_length=1, max_length=500)
    measured_response_time_s: list[float | None] | None = None
    include_bounds: bool = False


class ModelRowPublic(BaseModel):
    clients: int
    measured_throughput_per_s: float
    model_throughput_per_s: float
    throughput_deviation_percent: float
    measured_response_time_s: float | None
    model_response_time_s: float
    response_deviation_percent: float | None
    bound_throughput_per_s: float = Field(
        description="the asymptotic upper bound min(N / (D + Z), 1 / D_max) at this N, ops/s"
    )
    bound_response_time_s: float = Field(
        description="the asymptotic lower bound max(D, N D_max - Z) at this N, s"
    )
    throughput_fit: FitPublic = Field(
        description="how the measured throughput fits the model's value and bound"
    )
    response_time_fit: FitPublic | None = Field(
        description="how the measured response time fits the model's value and lower bound; "
        "null: not measured"
    )


class NetworkModelPublic(Units):
    rows: list[ModelRowPublic]
    model: MvaPublic
