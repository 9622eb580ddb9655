"""M/M/1 and M/M/m request and response schemas."""

from pydantic import BaseModel, Field

from backend.schemas.analysis.common import Percentiles, Units
from backend.schemas.base import RequestModel
from backend.schemas.limits import PositiveRatePerS


class MM1Request(RequestModel):
    # Measurable bounds, as every model input: a service rate of 1e132 beside an arrival rate
    # of 5e-324 gave a utilization no double holds, a 500 (found by `make fuzz-api`).
    arrival_rate_per_s: PositiveRatePerS
    service_rate_per_s: PositiveRatePerS
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
