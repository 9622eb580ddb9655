"""Schemas of the models filled from an experiment's measurements (model vs measurement)."""

from typing import Any, Literal

from pydantic import BaseModel, Field

from backend.schemas.analysis.common import Units
from backend.schemas.analysis.experiments import ConfigRef
from backend.schemas.analysis.model_fit import FitPublic
from backend.schemas.analysis.mva import SystemConfigIn


class ComparedPublic(BaseModel):
    """A predicted quantity beside its measurement."""

    predicted: float | None
    measured: float | None
    error_percent: float | None
    fit: FitPublic | None = Field(
        description="how the measurement fits the model (M/M/m's response time also against "
        "its lower bound, the service time); null: not measured"
    )


class QueuePredictionPublic(BaseModel):
    """One queueing model at one configuration."""

    model: Literal["M/M/1", "M/M/m"]
    servers: int
    service_rate_per_s: float
    utilization: float
    stable: bool
    queue_length: ComparedPublic = Field(
        description="E[nq], mean requests waiting (not in service), against the middlewares' "
        "mean work-queue length summed over middlewares; requests"
    )
    waiting_time_s: ComparedPublic = Field(
        description="E[w], mean wait before service, against the measured queue time; s"
    )
    response_time_s: ComparedPublic = Field(
        description="E[r] = wait + service, against the middleware response time; s"
    )
    capacity: FitPublic = Field(
        description="the measured arrival rate against the layer's capacity (m mu, the "
        "largest throughput the model allows): above it the queue has no steady state"
    )


class QueueModelRowPublic(ConfigRef):
    """M/M/1 and M/M/m at one configuration, with the sources of their inputs."""

    clients: int
    arrival_rate_per_s: float
    arrival_source: str
    service_time_s: float | None
    service_source: str
    mm1: QueuePredictionPublic | None
    mmm: QueuePredictionPublic | None
    note: str | None


class ExperimentQueueModelsPublic(Units):
    service_rate: Literal["worker_time", "max_throughput"]
    data: list[QueueModelRowPublic]


class EstimatePublic(BaseModel):
    """One model input estimated from the data, with its source."""

    parameter: str
    value: float
    unit: str
    source: str


class MeasuredPointPublic(BaseModel):
    """The clients' measurement at one client count (error bars: std over repetitions)."""

    configuration_id: int
    clients: int
    throughput_per_s: float
    throughput_std_per_s: float | None
    response_time_s: float | None
    response_time_std_s: float | None


class MeasuredUtilizationPublic(BaseModel):
    """The utilization law at one configuration, for a station whose busy time is measured."""

    configuration_id: int = Field(description="id of the configuration (grid point)")
    clients: int = Field(description="total clients N of the configuration")
    station: str = Field(description="the station: 'worker pool' (the middlewares' workers)")
    servers: int = Field(description="servers of the station (worker pool: workers x middlewares)")
    busy: float = Field(
        description="mean busy servers, busy seconds per second: X_mw (R - W), the "
        "middlewares' throughput times each request's worker hold time (response - queue time)"
    )
    utilization: float = Field(
        description="measured utilization per server, busy / servers (0..1; Octave's "
        "per-server convention X V S / m)"
    )
    throughput_per_s: float = Field(
        description="X, the system throughput the demand is per (the clients'), 1/s"
    )
    demand_s: float = Field(
        description="service demand D = servers U / X per client request (all its visits), s"
    )
    source: str = Field(description="the measurements and formulas used, with their values")
    note: str | None = Field(
        default=None,
        description="why the value is suspect (U > 1: the measured times and throughput disagree)",
    )


class NetworkGroupPublic(BaseModel):
    """A group of configurations differing only in clients: its points and model inputs."""

    group: dict[str, Any]
    system: SystemConfigIn
    estimates: list[EstimatePublic]
    points: list[MeasuredPointPublic]
    utilization: list[MeasuredUtilizationPublic] = Field(
        description="measured utilization and demand D = U / X per configuration (utilization "
        "law), for the stations whose busy time the middleware reports"
    )


class ExperimentNetworkInputsPublic(Units):
    data: list[NetworkGroupPublic]


class ModelBottleneckPublic(BaseModel):
    """One model's bottleneck of a group and what it rests on."""

    model: str = Field(description="the model: MVA, demand model or network bound")
    resource: str = Field(description="the bottleneck as the model names it")
    component: str = Field(
        description="the part of the system it belongs to, named alike for every model "
        "(net_thread_0 and workers_0 are middleware 0)"
    )
    basis: str = Field(description="what the model's numbers come from")
    detail: str = Field(description="the numbers that make it the bottleneck")


class GroupBottleneckPublic(BaseModel):
    """One bottleneck statement for a group of configurations differing only in clients."""

    group: dict[str, Any] = Field(description="the group's factor values besides the clients")
    statement: str = Field(
        description="the bottleneck in one sentence: one component when the models agree, "
        "else each model's answer with its basis and why they differ"
    )
    agree: bool = Field(description="whether every model names the same component")
    models: list[ModelBottleneckPublic] = Field(description="each model's answer")


class ExperimentBottlenecksPublic(Units):
    data: list[GroupBottleneckPublic]
