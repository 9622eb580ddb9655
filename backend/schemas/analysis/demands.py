"""Schemas of the models built from measured demands (backend/analysis/demands.py)."""

from typing import Any

from pydantic import BaseModel, Field

from backend.schemas.analysis.common import Units
from backend.schemas.analysis.model_fit import FitPublic


class StationDemandPublic(BaseModel):
    """A station's (or process's) demand by the utilization law D = U / X."""

    name: str
    servers: int = Field(
        description="cores of a host's CPU; threads of a process; hosts of a role's network"
    )
    demand_s: float = Field(description="pooled over the group's points: sum busy / sum X")
    demand_by_point_s: list[float] = Field(description="D = busy / X at each measured point, s")
    utilization_by_point: list[float] = Field(description="busy servers / servers per point")


class DemandFitPointPublic(BaseModel):
    """The model against the measurement at one measured client count."""

    clients: int
    measured_throughput_per_s: float
    model_throughput_per_s: float
    bound_throughput_per_s: float = Field(
        description="asymptotic bound min(N/(D+Z), m/D), requests/s"
    )
    throughput_error_pct: float = Field(description="(model - measured) / measured, %")
    measured_response_time_s: float | None
    model_response_time_s: float
    response_time_error_pct: float | None = Field(
        description="(model - measured) / measured response time, %; null: not measured"
    )
    bound_response_time_s: float = Field(
        description="asymptotic lower bound max(D, N D_max - Z) of the response time, s"
    )
    throughput_fit: FitPublic = Field(
        description="how the measured throughput fits the model's value and bound"
    )
    response_time_fit: FitPublic | None = Field(
        description="how the measured response time fits the model's value and lower bound; "
        "null: not measured"
    )


class BottleneckPublic(BaseModel):
    """The resource with the highest utilization at the highest measured load."""

    resource: str
    utilization: float
    clients: int
    servers: int
    others: list[tuple[str, float]] = Field(
        description="the other resources with their utilization there, highest first"
    )


class DemandModelPublic(BaseModel):
    stations: list[StationDemandPublic]
    processes: list[StationDemandPublic] = Field(
        description="each process's own CPU demand, beside the stations (not a station)"
    )
    think_time_s: float
    points: list[DemandFitPointPublic]
    bottleneck: BottleneckPublic | None
    warnings: list[str] = Field(
        description="why the model may not fit: above the bound, U > 1, timers vs CPU"
    )
    timer_demand_s: float | None = Field(
        description="the middleware timers' worker time per request in s (pooled), the cross-check"
    )
    cpu_demand_s: float | None = Field(
        description="the middlewares' CPU seconds per request (pooled)"
    )
    network_delay_s: float | None = Field(
        default=None,
        description="the delay station: the measured client -> middleware round trip in s "
        "(median over the group's runs); null: not measured, no delay station",
    )


class DemandGroupPublic(BaseModel):
    group: dict[str, Any]
    configuration_ids: list[int]
    model: DemandModelPublic
    timer_tolerance: float = Field(
        description="relative difference of timers and CPU demand above which a warning is given"
    )


class ExperimentDemandModelsPublic(Units):
    data: list[DemandGroupPublic]
