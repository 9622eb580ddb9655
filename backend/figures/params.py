"""Query parameters of a figure: the page's selection plus the printed size and style.

One model for every figure, so a figure URL reads like the page it comes from; a figure
ignores the parameters it has no use for. Bad values are 422s naming the field.
"""

from typing import Literal

from pydantic import ConfigDict, Field

from backend.analysis.errors import AnalysisError
from backend.domain.compare import BandKind
from backend.domain.metrics import MetricName
from backend.models import HistogramMetric, RequestType
from backend.schemas.figure import FigureOutput
from backend.schemas.limits import Confidence, DbId, Seconds, TCritical, Utilization
from backend.schemas.window import RecutWindow

SourceKind = Literal["client", "middleware"]
Spread = Literal["bars", "band", "none"]
QueueQuantity = Literal["response_time", "waiting_time", "queue_length"]
ServiceRate = Literal["worker_time", "max_throughput"]


class ResultsQuery(RecutWindow):
    """What the numbers are: the results page's source, request type, window and analysis."""

    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)

    source: SourceKind = "client"
    request_type: RequestType = RequestType.ALL
    metric: MetricName = "throughput_per_s"
    factors: str | None = Field(default=None, description="factorial: comma-separated factors")
    confidence: Confidence = 0.90
    multiplicative: bool = False
    t_critical: TCritical | None = Field(
        default=None, description="factorial: critical t as given (default: exact quantile)"
    )


class FigureQuery(ResultsQuery, FigureOutput):
    """The results query (as on the results page), then size and style of the output."""

    x: str | None = Field(default=None, description="factor on the x axis (default: the first)")
    series: str | None = Field(
        default=None, description="factor with one line per level (default: the next factor)"
    )
    pin: list[str] = Field(
        default_factory=list,
        description="factor=level for a factor held at one level (default: its first level)",
    )
    histogram_metric: HistogramMetric | None = Field(
        default=None, description="default: client for source=client, total for middleware"
    )
    percentiles: str = "50,90,99"
    configuration_id: int | None = Field(
        default=None, description="histogram: the configuration (default: the first measured)"
    )
    run_id: int | None = Field(
        default=None, description="time series: the run (default: the first succeeded)"
    )
    think_time_s: Seconds | None = None
    band: Spread = Field(
        default="bars",
        description="spread over repetitions around each mean: error bars, a filled band "
        "(mean ± std) or none",
    )
    log_x: bool = Field(default=False, description="logarithmic x axis (numeric x only)")
    log_y: bool = Field(default=False, description="logarithmic y axis")
    group: int = Field(
        default=0,
        ge=0,
        description="model figures: the group of configurations differing only in clients "
        "(index, as on the Models tab)",
    )
    server_utilization: Utilization | None = Field(
        default=None,
        description="model figures: measured utilization of each memcached server (0..1]",
    )
    what_if: list[str] = Field(
        default_factory=list,
        max_length=16,
        description="model figures: field=value overrides of the network inputs (fields and "
        "units of SystemConfigIn, e.g. workers=16, worker_service_s=0.001); adds the what-if "
        "curve beside the one from the data",
    )
    quantity: QueueQuantity = Field(
        default="response_time", description="queue-models: the quantity drawn against N"
    )
    service_rate: ServiceRate = Field(
        default="worker_time", description="queue-models: how the service rate is measured"
    )
    compare: list[DbId] = Field(
        default_factory=list,
        max_length=49,
        description="compare-groups: further experiments compared with this one",
    )
    group_by: str | None = Field(
        default=None,
        description="compare-groups: 'experiment' or a parameter (default: experiment when "
        "other experiments are compared, else the series factor)",
    )
    interval: BandKind = Field(
        default="std", description="compare-groups: band of std, standard error or t interval"
    )
    level: float = Field(default=0.95, ge=0.5, lt=1.0, description="compare-groups: t level")

    def pins(self) -> dict[str, str]:
        """`pin` as factor -> level text; a malformed entry is a 422 on `pin`."""
        out: dict[str, str] = {}
        for item in self.pin:
            name, sep, level = item.partition("=")
            if not sep or not name:
                raise AnalysisError("pin", f"expected factor=level, got {item!r}")
            out[name] = level
        return out

    def what_if_overrides(self) -> dict[str, float]:
        """`what_if` as field -> number; a malformed entry is a 422 on `what_if`."""
        out: dict[str, float] = {}
        for item in self.what_if:
            name, sep, value = item.partition("=")
            try:
                number = float(value)
            except ValueError:
                number = float("nan")
            if not sep or not name or number != number:
                raise AnalysisError("what_if", f"expected field=number, got {item!r}")
            out[name] = number
        return out

    def histogram_source_metric(self) -> HistogramMetric:
        """The histogram a percentile figure reads when none is named."""
        if self.histogram_metric is not None:
            return self.histogram_metric
        return HistogramMetric.CLIENT if self.source == "client" else HistogramMetric.TOTAL
