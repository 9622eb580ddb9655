"""Schemas of the results table (`/experiments/{id}/results`)."""

from pydantic import BaseModel, Field

from backend.domain.metrics import METRIC_UNITS, SourceKind
from backend.models.enums import RequestType


class ConfigurationResultPublic(BaseModel):
    """One configuration over its repetitions (mean and sample std)."""

    configuration_id: int
    index: int
    values: dict[str, object]
    repetitions: int
    throughput_mean: float | None
    throughput_std: float | None
    response_time_us_mean: float | None
    response_time_us_std: float | None
    keys_per_s_mean: float | None
    repetitions_reason: str | None = Field(
        default=None,
        description="why the configuration has its n under the design's repetition rule "
        "(judged on the rule's own metric and source over the stable window), e.g. 'target "
        "met at n=3'; None for fixed repetitions",
    )


class ResultsPublic(BaseModel):
    source: SourceKind
    request_type: RequestType
    # The re-cut window, None for each run's stored stable window.
    window_start_s: int | None = None
    window_end_s: int | None = None
    units: dict[str, str]
    data: list[ConfigurationResultPublic]


RESULTS_UNITS = {
    "throughput": METRIC_UNITS["throughput_per_s"],
    "response_time": METRIC_UNITS["response_time_us"],
    "keys_per_s": METRIC_UNITS["keys_per_s"],
}
"""Units of the table's metrics, from the metric table."""
