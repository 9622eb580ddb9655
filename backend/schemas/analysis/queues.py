"""M/M/1 and M/M/m request and response schemas."""

from pydantic import BaseModel, Field

from backend.schemas.analysis.common import Percentiles, PositiveRate, Units
from backend.schemas.base import RequestModel


class MM1Request(RequestModel):
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
