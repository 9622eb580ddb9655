"""The latency-SLO search: its request object (nested in an experiment's design) and its
served state (probes with their verdicts, and the answer)."""

from typing import Literal

from pydantic import Field, model_validator

from backend.analysis.slo import Objective, SearchLimits, probe_bound
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


class SloPreviewPublic(Schema):
    """What a search can cost at most: its runs are decided one by one, so the preview's
    runs, duration and cost are this bound, not a count."""

    max_rates: int = Field(description="distinct rates probed, at most")
    max_runs: int = Field(description="runs in all, at most (max_probes caps it)")
    explanation: str = Field(description="how the bound is reached, in words")
    settings: dict[str, float | int | str] = Field(
        description="every field of the search as it will run, defaults filled in"
    )

    @classmethod
    def of(cls, spec: SloSearchSpec) -> "SloPreviewPublic":
        b = probe_bound(spec.limits())
        repeats = max(spec.max_repeats, spec.confirm_repeats)
        return cls(
            max_rates=b.rates,
            max_runs=b.runs,
            explanation=(
                f"at most {b.rates} rates (doubling from {spec.start_rate} up to "
                f"{spec.max_rate}, halving down to 1, then bisection to "
                f"{spec.resolution_pct:g} %), each rate run at most {repeats} "
                f"time{'s' if repeats > 1 else ''}, and never more than {spec.max_probes} runs"
            ),
            settings=spec.model_dump(),
        )


class SloEstimatePublic(Schema):
    """A latency statistic with its confidence interval (us) over n requests."""

    value_us: float = Field(description="the statistic, us")
    low_us: float = Field(description="lower end of its confidence interval, us")
    high_us: float | None = Field(
        description="upper end of its confidence interval, us; null: unbounded (overflow bucket)"
    )
    n: int = Field(description="requests in the merged histogram")


class SloProbePublic(Schema):
    """One rate probed: its runs pooled (histograms merged over runs and instances)."""

    rate_per_connection: int = Field(description="offered load per connection, requests/s")
    offered_per_s: float = Field(description="rate x connections, requests/s")
    delivered_per_s: float | None = Field(description="clients' mean throughput, requests/s")
    configuration_id: int = Field(description="the configuration {rate_limit: rate}")
    run_ids: list[int] = Field(description="the probe's runs, in the order they were queued")
    runs_done: int = Field(description="runs of this rate that succeeded")
    client: SloEstimatePublic | None = Field(
        description="the objective's statistic over the clients' merged histograms"
    )
    middleware: SloEstimatePublic | None = Field(
        description="the same statistic over the middlewares' merged histograms"
    )
    verdict: Literal["meets", "misses", "unsure"] | None = Field(
        description="meets: the whole interval within the target and the load carried; "
        "misses: the interval above it or the load not carried; null: no run finished"
    )


class SloRatePublic(Schema):
    """One probed rate's statistic, as evidence."""

    rate_per_connection: int = Field(description="offered load per connection, requests/s")
    client: SloEstimatePublic = Field(description="the objective's statistic at it")
    verdict: Literal["meets", "misses", "unsure"] = Field(description="its verdict")


class SloNonMonotonicPublic(Schema):
    """Latency that falls as the offered load rises, beyond noise: at `higher` the whole
    confidence interval of the statistic lies below the one at `lower`, a lower rate."""

    summary: str = Field(description="what was found, in words")
    lower: SloRatePublic = Field(description="the lower rate, with the higher latency")
    higher: SloRatePublic = Field(description="the higher rate, with the lower latency")
    evidence: list[SloRatePublic] = Field(
        description="every rate with a statistic, lowest rate first"
    )


class SloSendingPatternPublic(Schema):
    """How the load generator sends at the lowest rate probed (or the start rate)."""

    rate_per_connection: int = Field(description="the rate described, requests/s")
    per_tick: int = Field(description="requests each connection sends per timer tick")
    tick_ms: float = Field(description="the timer's period, ms")
    burst: int = Field(description="requests one load generator process sends at each tick")
    description: str = Field(description="the sending pattern, in words")
    advice: str = Field(description="what to do to measure a light load steadily")


class SloSearchPublic(Schema):
    """The search as it stands: probes in the order first run, and the answer once done."""

    objective: str = Field(description="the objective in words, e.g. p99 ≤ 2 ms")
    confidence: float = Field(description="confidence of every interval, 0..1")
    connections: int = Field(description="connections that each carry the rate")
    state: Literal["not_started", "searching", "done", "stopped"] = Field(
        description="stopped: a probe failed or was cancelled (Start resumes it)"
    )
    reason: str = Field(description="why the search is in this state, or why it stopped")
    probes: list[SloProbePublic] = Field(description="every rate probed, first probed first")
    answer_rate_per_connection: int | None = Field(
        description="highest rate per connection shown to meet the objective, requests/s"
    )
    answer_offered_per_s: float | None = Field(description="its offered load, requests/s")
    answer_delivered_per_s: float | None = Field(description="the load carried, requests/s")
    answer_client: SloEstimatePublic | None = Field(description="clients' statistic at it")
    answer_middleware: SloEstimatePublic | None = Field(description="middlewares' statistic at it")
    runs: int = Field(description="probe runs so far")
    non_monotonic: SloNonMonotonicPublic | None = Field(
        description="latency not monotonic in offered load, with the evidence; null: not seen"
    )
    sending_pattern: SloSendingPatternPublic = Field(
        description="the load generator's sending pattern at low rates, and what to do"
    )
