"""Schemas of the results table (`/experiments/{id}/results`): each row's metrics keyed by
their name in the metric table (`backend.domain.metrics`), which also gives their units and
descriptions."""

from typing import Literal, get_args

from pydantic import BaseModel, Field

from backend.domain.metrics import METRICS, MetricName, SourceKind
from backend.models.enums import RequestType

ResultMetric = Literal["throughput_per_s", "response_time_us", "keys_per_s"]
"""The metrics of the results table, by their metric-table name."""
RESULT_METRICS: tuple[ResultMetric, ...] = get_args(ResultMetric)


class MetricSummaryPublic(BaseModel):
    """One metric of one configuration over its repetitions."""

    n: int = Field(description="repetitions with a value of this metric")
    mean: float | None
    std: float | None


class ResultMetricsPublic(BaseModel):
    """A configuration's metrics, each under its metric-table name (described there)."""

    throughput_per_s: MetricSummaryPublic
    response_time_us: MetricSummaryPublic
    keys_per_s: MetricSummaryPublic


# The fields are spelled out for typed clients; the metric table and ResultMetric decide them.
if tuple(ResultMetricsPublic.model_fields) != RESULT_METRICS or not set(RESULT_METRICS) <= set(
    get_args(MetricName)
):  # pragma: no cover - a developer error at import
    raise RuntimeError("ResultMetricsPublic's fields must be ResultMetric's metric-table names")


class ConfigurationResultPublic(BaseModel):
    """One configuration over its repetitions (mean and sample std)."""

    configuration_id: int
    index: int
    values: dict[str, object]
    repetitions: int = Field(description="repetitions with a measured throughput")
    metrics: ResultMetricsPublic = Field(
        description="each metric of the table under its metric-table name, mean and std over "
        "repetitions (units in the answer's `units`)"
    )
    repetitions_reason: str | None = Field(
        default=None,
        description="why the configuration has its n under the design's repetition rule "
        "(judged on the rule's own metric and source over the stable window), e.g. 'target "
        "met at n=3'; None for fixed repetitions",
    )

    def mean(self, metric: ResultMetric) -> float | None:
        """The metric's mean over repetitions (None: not measured)."""
        return self.summary(metric).mean

    def std(self, metric: ResultMetric) -> float | None:
        """The metric's sample std over repetitions (None: fewer than two)."""
        return self.summary(metric).std

    def summary(self, metric: ResultMetric) -> MetricSummaryPublic:
        """The metric over repetitions."""
        summary: MetricSummaryPublic = getattr(self.metrics, metric)
        return summary


class ResultsPublic(BaseModel):
    source: SourceKind
    request_type: RequestType
    # The re-cut window, None for each run's stored stable window.
    window_start_s: int | None = None
    window_end_s: int | None = None
    units: dict[str, str]
    data: list[ConfigurationResultPublic]


RESULTS_UNITS = {m: METRICS[m].unit for m in RESULT_METRICS}
"""Units of the table's metrics by metric name, from the metric table."""
