"""The repetition rule of a design: repetitions added until the main metric's interval is
narrow enough, between a minimum and a maximum fixed before Start (README "Repetitions by
a rule")."""

from pydantic import Field, ValidationInfo, field_validator

from backend.domain.metrics import MetricName, SourceKind
from backend.schemas.base import RequestModel

MAX_RULE_REPETITIONS = 100


class RepetitionRuleSpec(RequestModel):
    """Add repetitions to a configuration until the `confidence` t interval of its mean
    `metric` has a half-width of at most `half_width_pct` % of the mean, between
    `min_repetitions` and `max_repetitions` runs."""

    metric: MetricName = Field(
        default="throughput_per_s", description="the main metric the rule judges"
    )
    source: SourceKind = Field(
        default="client",
        description="which side's measurement of the metric (client or "
        "middleware); request type all, the stored stable window",
    )
    half_width_pct: float = Field(
        default=5.0,
        gt=0.0,
        le=100.0,
        description="target half-width of the interval, percent of the mean (%)",
    )
    confidence: float = Field(
        default=0.95, ge=0.5, le=0.999, description="confidence level of the interval"
    )
    min_repetitions: int = Field(
        default=3,
        ge=2,
        le=MAX_RULE_REPETITIONS,
        description="repetitions every configuration gets first (at least 2: an interval "
        "needs a standard deviation); equals the design's repetitions",
    )
    max_repetitions: int = Field(
        default=10,
        # The default is checked against min_repetitions too: a minimum above it was stored,
        # and every read of the experiment then failed on its own rule.
        validate_default=True,
        ge=2,
        le=MAX_RULE_REPETITIONS,
        description="the cap: no configuration gets more repetitions than this",
    )

    # On the field (min_repetitions is validated before it), so the 422 names
    # repetition_rule.max_repetitions.
    @field_validator("max_repetitions")
    @classmethod
    def cap_not_below_minimum(cls, v: int, info: ValidationInfo) -> int:
        low = info.data.get("min_repetitions")
        if low is not None and v < low:
            raise ValueError(f"must be at least min_repetitions ({low})")
        return v
