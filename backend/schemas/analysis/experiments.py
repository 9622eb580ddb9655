"""Schemas of analyses on a stored experiment (grid rows carry their configuration)."""

from typing import Any, Literal

from pydantic import BaseModel, Field

from backend.domain.metrics import SourceKind
from backend.schemas.analysis.common import Units
from backend.schemas.analysis.mva import (
    ModelRowPublic,
)
from backend.schemas.analysis.statistics import (
    HistogramPercentilePublic,
    HistogramPublic,
)
from backend.schemas.base import RequestModel


class ConfigStatPublic(BaseModel):
    configuration_id: int
    index: int
    values: dict[str, Any]
    repetitions: int
    mean: float | None
    std: float | None
    ci_low: float | None
    ci_high: float | None


class ExperimentSummaryPublic(Units):
    metric: str
    unit: str
    source: SourceKind
    confidence: float | None
    data: list[ConfigStatPublic]


class ConfigRef(BaseModel):
    configuration_id: int
    index: int
    values: dict[str, Any]


class BreakdownRowPublic(ConfigRef):
    client_response_us: float
    middleware_response_us: float
    queue_us: float
    server_us: float
    processing_us: float
    network_us: float
    round_trip_us: float | None = Field(
        default=None,
        description="the measured client -> middleware TCP round trip, us (median over the "
        "configuration's runs); null: not measured",
    )
    rest_us: float | None = Field(
        default=None, description="network_us minus round_trip_us, us (see rest_label)"
    )


class ExperimentBreakdownPublic(Units):
    data: list[BreakdownRowPublic]
    rest_label: str = Field(
        default="",
        description="what the network time beyond one round trip is on this testbed",
    )


class InteractiveRowPublic(ConfigRef):
    clients: int
    response_time_s: float
    measured_throughput_per_s: float
    expected_throughput_per_s: float
    deviation_percent: float


class ExperimentInteractivePublic(Units):
    think_time_s: float
    think_time_estimated: bool
    data: list[InteractiveRowPublic]


class RelativeConfigRowPublic(ConfigRef):
    value: float
    base_value: float
    difference_percent: float


class ExperimentRelativePublic(Units):
    metric: str
    unit: str
    factor: str
    base: str
    data: list[RelativeConfigRowPublic]


class ServiceTimesIn(RequestModel):
    """Measured service times the network model needs (the grid supplies the rest)."""

    network_delay_s: float = Field(ge=0, allow_inf_nan=False)
    net_thread_service_s: float = Field(ge=0, allow_inf_nan=False)
    worker_service_s: float = Field(gt=0, allow_inf_nan=False)
    server_service_s: float = Field(gt=0, allow_inf_nan=False)
    think_time_s: float = Field(default=0.0, ge=0, allow_inf_nan=False)


class ModelGroupPublic(BaseModel):
    group: dict[str, Any]
    rows: list[ModelRowPublic]


class ExperimentModelPublic(Units):
    data: list[ModelGroupPublic]


class LittleRowPublic(ConfigRef):
    measured_length: float
    throughput_per_s: float
    time_s: float
    predicted_length: float
    deviation_percent: float | None


class ExperimentLittlePublic(Units):
    data: list[LittleRowPublic]


class ConfigPercentilesPublic(ConfigRef):
    """Percentiles of one configuration's merged histograms; empty when none is stored."""

    total: float
    percentiles: list[HistogramPercentilePublic]


HistogramSpan = Literal["window", "whole_run"]
SPAN_FIELD = Field(
    description='"window": exactly the requested (or stored stable) window; "whole_run": the '
    "tool gives only a whole-run histogram, warm-up and cool-down included"
)


class ExperimentPercentilesPublic(Units):
    metric: str
    source: SourceKind
    percentiles: list[float]
    span: HistogramSpan = SPAN_FIELD
    span_label: str = Field(
        description='how a view labels the span, e.g. "whole run, incl. warm-up"'
    )
    data: list[ConfigPercentilesPublic]


class ExperimentHistogramPublic(HistogramPublic):
    """One configuration's merged histogram, saying which seconds it covers."""

    span: HistogramSpan = SPAN_FIELD
    span_label: str = Field(
        description='how a view labels the span, e.g. "whole run, incl. warm-up"'
    )
