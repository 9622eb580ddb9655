"""The latency-SLO search: its request object (nested in an experiment's design) and its
served state (probes with their verdicts, and the answer)."""

from typing import Literal

from pydantic import Field, model_validator

from backend.analysis.slo import Objective, SearchLimits
from backend.schemas.base import RequestModel, Schema


class SloSearchSpec(RequestModel):
    """Find the highest offered load (requests/s per connection, open loop) at which the
    objective holds at its confidence; every other parameter is the design's `fixed`."""

    statistic: Literal["mean", "percentile"] = Field(
        default="percentile", description="the latency statistic the objective bounds"
    )
    percentile: float = Field(
        default=99.0, gt=0, lt=100, description="which percentile (statistic = percentile)"
    )
    target_us: float = Field(
        gt=0, le=60_000_000, description="the objective: the statistic at most this, us"
    )
    confidence: float = Field(
        default=0.95, ge=0.5, le=0.999, description="confidence the objective is shown at"
    )
    resolution_pct: float = Field(
        default=5.0, ge=0.1, le=50, description="stop when the bracket is this narrow, %"
    )
    start_rate: int = Field(
        default=100, ge=1, le=1_000_000, description="first probe, requests/s per connection"
    )
    max_rate: int = Field(
        default=100_000, ge=1, le=1_000_000, description="highest probe, requests/s per connection"
    )
    max_repeats: int = Field(
        default=3, ge=1, le=10, description="runs of one rate while its interval straddles"
    )
    confirm_repeats: int = Field(default=2, ge=1, le=10, description="runs the answer must have")
    max_probes: int = Field(default=30, ge=1, le=200, description="runs in all, at most")
    min_delivered: float = Field(
        default=0.95,
        ge=0.5,
        le=1.0,
        description="a probe misses when clients carry less than this fraction of its offered load",
    )

    @model_validator(mode="after")
    def start_within_max(self) -> "SloSearchSpec":
        if self.start_rate > self.max_rate:
            raise ValueError("start_rate must not exceed max_rate")
        return self

    def objective(self) -> Objective:
        return Objective(
            self.statistic, self.percentile, self.target_us, self.confidence, self.min_delivered
        )

    def limits(self) -> SearchLimits:
        return SearchLimits(
            self.start_rate,
            self.max_rate,
            self.resolution_pct,
            self.max_repeats,
            self.confirm_repeats,
            self.max_probes,
        )


class SloEstimatePublic(Schema):
    """A latency statistic with its confidence interval (us) over n requests."""

    value_us: float
    low_us: float
    high_us: float | None = Field(description="upper end; null: unbounded (overflow bucket)")
    n: int


class SloProbePublic(Schema):
    """One rate probed: its runs pooled (histograms merged over runs and instances)."""

    rate_per_connection: int
    offered_per_s: float = Field(description="rate x connections, requests/s")
    delivered_per_s: float | None = Field(description="clients' mean throughput, requests/s")
    configuration_id: int
    run_ids: list[int]
    runs_done: int
    client: SloEstimatePublic | None = Field(description="the objective's statistic, clients")
    middleware: SloEstimatePublic | None = Field(description="the same at the middleware")
    verdict: Literal["meets", "misses", "unsure"] | None = Field(
        description="null: no run of this rate has finished"
    )


class SloSearchPublic(Schema):
    """The search as it stands: probes in the order first run, and the answer once done."""

    objective: str
    confidence: float
    connections: int
    state: Literal["not_started", "searching", "done", "stopped"]
    reason: str
    probes: list[SloProbePublic]
    answer_rate_per_connection: int | None
    answer_offered_per_s: float | None
    answer_delivered_per_s: float | None
    answer_client: SloEstimatePublic | None
    answer_middleware: SloEstimatePublic | None
    runs: int = Field(description="probe runs so far")
