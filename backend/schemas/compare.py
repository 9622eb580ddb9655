"""Compare request/response schemas: selections, parameters, differences, groups, configurations."""

import math
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, Field, ValidationInfo, field_validator

from backend.domain.compare import OVERVIEW_METRICS, BandKind, CompareMetric, Verdict
from backend.domain.metrics import SourceKind
from backend.models import HostRole, RequestType
from backend.schemas.base import RequestModel, Schema
from backend.schemas.figure import FigureOutput
from backend.schemas.limits import Confidence, DbId
from backend.schemas.window import RecutWindow

GROUP_BY_EXPERIMENT = "experiment"
"""The group_by value that groups by experiment instead of by a parameter."""


ROLE_DESCRIPTION = (
    "source=process only: the processes of one host role (process:<role>:<N>, e.g. the "
    "middlewares), summed per run; none: every process of the run"
)


def process_role(v: HostRole | None, info: ValidationInfo) -> HostRole | None:
    """A role narrows the process side only (field validator of `role`, after `source`)."""
    if v is not None and info.data.get("source") != "process":
        raise ValueError("a role selects processes: only with source 'process'")
    return v


class CompareSelection(RecutWindow, RequestModel):
    """Which experiments, and which measurements of them (source, role, request type,
    window)."""

    experiment_ids: list[DbId] = Field(min_length=1, max_length=50)
    source: SourceKind = "client"
    role: HostRole | None = Field(default=None, description=ROLE_DESCRIPTION)
    request_type: RequestType = RequestType.ALL

    _role = field_validator("role")(process_role)

    @field_validator("experiment_ids")
    @classmethod
    def distinct_experiments(cls, v: list[DbId]) -> list[DbId]:
        if len(set(v)) != len(v):
            raise ValueError("each experiment may appear once")
        return v


def _interval(v: tuple[float, float]) -> tuple[float, float]:
    lo, hi = v
    if not (math.isfinite(lo) and math.isfinite(hi)):
        raise ValueError("bounds must be finite numbers")
    if lo > hi:
        raise ValueError("the low bound lies above the high bound")
    return v


BrushInterval = Annotated[tuple[float, float], AfterValidator(_interval)]
BrushRanges = dict[str, Annotated[list[BrushInterval], Field(min_length=1, max_length=32)]]


class BrushedSelection(CompareSelection):
    """A selection narrowed by brushing the parallel coordinates."""

    brush: BrushRanges | None = Field(
        default=None,
        max_length=64,
        description="brushed intervals [low, high] per parallel-coordinates axis (the axis "
        "key: 'experiment', a parameter or a metric; text levels and experiments are numbered "
        "as the figure draws them): a configuration is kept when on every brushed axis its "
        "value lies in one of the axis' intervals",
    )


class DifferencesRequest(BrushedSelection):
    """Differences against a base: matched configurations of a base experiment, or chosen
    configurations against a base configuration (when configuration_ids is given)."""

    base_experiment_id: DbId | None = Field(
        default=None, description="base of experiment mode; default the first experiment"
    )
    configuration_ids: list[DbId] = Field(default_factory=list, max_length=5000)
    base_configuration_id: DbId | None = None
    metrics: list[CompareMetric] = Field(
        default_factory=lambda: list(OVERVIEW_METRICS),
        min_length=1,
        max_length=50,
        description="metrics of the metric table (GET /metrics) the chosen source reports",
    )
    level: Confidence = Field(default=0.95, description="confidence level")
    only_configuration_ids: list[DbId] | None = Field(
        default=None, max_length=100_000, description="keep rows touching these (brushing)"
    )


class SamplePublic(Schema):
    n: int
    mean: float
    std: float | None


class DifferenceRowPublic(Schema):
    experiment_id: int
    configuration_id: int
    base_experiment_id: int
    base_configuration_id: int
    values: dict[str, Any]
    metric: CompareMetric
    unit: str
    base: SamplePublic
    other: SamplePublic
    difference: float
    low: float | None
    high: float | None
    dof: float | None
    relative_percent: float | None
    relative_low: float | None
    relative_high: float | None
    verdict: Verdict
    flagged_inputs: list[int] = Field(
        default_factory=list,
        description="of base_configuration_id and configuration_id, those with quality flags",
    )


class DifferencesPublic(Schema):
    level: float
    mode: Literal["experiments", "configurations"]
    units: dict[str, str]
    data: list[DifferenceRowPublic]
    count: int
    unmatched: int = Field(description="configurations without a base counterpart or results")


class GroupsRequest(BrushedSelection):
    """One mean curve per group over a shared x parameter, with a band."""

    x: str = Field(min_length=1)
    group_by: str = Field(default=GROUP_BY_EXPERIMENT, min_length=1)
    metric: CompareMetric = "throughput_per_s"
    band: BandKind = "std"
    level: Confidence = Field(default=0.95, description="confidence level of the t band")
    only_configuration_ids: list[DbId] | None = Field(default=None, max_length=100_000)


class GroupPointPublic(Schema):
    x: Any
    n: int
    mean: float
    low: float | None
    high: float | None


class GroupPublic(Schema):
    key: str
    label: str
    runs: int
    configurations: int
    points: list[GroupPointPublic]
    pooled: dict[str, list[Any]] = Field(
        default_factory=dict,
        description="parameters whose levels this group's points pool (name -> levels), "
        "besides x and the grouping parameter; empty when each point is one configuration",
    )


class GroupsPublic(Schema):
    x: str
    group_by: str
    metric: CompareMetric
    unit: str
    band: BandKind
    level: float
    data: list[GroupPublic]


class ConfigurationRowPublic(Schema):
    experiment_id: int
    configuration_id: int
    values: dict[str, Any]
    repetitions: int
    metrics: dict[str, float | None]
    brushed: bool = Field(default=True, description="inside the brush (true when none)")


class ConfigurationsRequest(BrushedSelection):
    """Every configuration of the selection with the means of `metrics`."""

    metrics: list[CompareMetric] = Field(
        default_factory=lambda: list(OVERVIEW_METRICS), min_length=1, max_length=50
    )


class ConfigurationTablePublic(Schema):
    """All configurations of the selection, for parallel coordinates and the picker."""

    parameters: list[str]
    metrics: list[CompareMetric]
    units: dict[str, str]
    data: list[ConfigurationRowPublic]
    count: int
    brushed: int | None = Field(
        default=None, description="configurations inside the brush; null when none is given"
    )


class ParameterRowPublic(Schema):
    group: Literal["design", "parameter", "testbed", "tool", "hardware"]
    name: str
    label: str = Field(description='how the UI names the row ("worker threads", "run time (s)")')
    unit: str | None
    values: list[Any] = Field(description="one per experiment; a list of levels for a factor")
    varied: list[bool] = Field(description="per experiment: a factor of that experiment")
    differs: bool


class ExperimentRefPublic(Schema):
    id: int
    name: str


class ParametersComparisonPublic(Schema):
    experiments: list[ExperimentRefPublic]
    data: list[ParameterRowPublic]
    groupable: list[str] = Field(description="parameters whose value differs between runs")
    hardware_differences: list[str] = Field(
        default_factory=list,
        description="one sentence per hardware row that differs "
        "('different hardware: client VM size Standard_A2_v2 vs Standard_D2s_v3')",
    )


class CompareFigureRequest(BrushedSelection, FigureOutput):
    """A figure of the compare page: its selection, brushing, and the file's size and style."""

    x: str | None = Field(
        default=None, min_length=1, description="compare-groups: the parameter on the x axis"
    )
    group_by: str = Field(default=GROUP_BY_EXPERIMENT, min_length=1)
    metric: CompareMetric = Field(
        default="throughput_per_s",
        description="compare-groups: the metric drawn; compare-parcoords: the metric colouring "
        "the lines (an axis beside throughput and response time)",
    )
    band: BandKind = "std"
    level: Confidence = Field(default=0.95, description="confidence level of the t band")
    log_x: bool = Field(default=False, description="logarithmic x axis (numeric x only)")
    log_y: bool = Field(default=False, description="logarithmic y axis")
