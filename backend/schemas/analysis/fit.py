"""Schemas of the models filled from an experiment's measurements (model vs measurement)."""

from typing import Any, Literal

from pydantic import BaseModel, Field

from backend.schemas.analysis.common import Units
from backend.schemas.analysis.experiments import ConfigRef
from backend.schemas.analysis.mva import SystemConfigIn


class ComparedPublic(BaseModel):
    """A predicted quantity beside its measurement."""

    predicted: float | None
    measured: float | None
    error_percent: float | None


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


class NetworkGroupPublic(BaseModel):
    """A group of configurations differing only in clients: its points and model inputs."""

    group: dict[str, Any]
    system: SystemConfigIn
    estimates: list[EstimatePublic]
    points: list[MeasuredPointPublic]


class ExperimentNetworkInputsPublic(Units):
    data: list[NetworkGroupPublic]
