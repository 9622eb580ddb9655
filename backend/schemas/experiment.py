"""Experiment request/response schemas. Parameter values are checked by backend.domain."""

from datetime import datetime
from typing import Annotated, Any, Literal, Protocol

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator
from pydantic_core import InitErrorDetails, PydanticCustomError

from backend.domain.design_fields import COOLDOWN, REPETITIONS, RUN_TIME, WARMUP, DesignField
from backend.domain.grid import MAX_LEVELS, effective_parameters
from backend.domain.templates import Template
from backend.domain.window import WindowError, design_window
from backend.schemas.base import RequestModel
from backend.schemas.fraction import FractionIn, FractionPublic, PowerPublic
from backend.schemas.limits import INT32_MAX, DbText
from backend.schemas.price import CostPublic
from backend.schemas.repetition_rule import RepetitionRuleSpec
from backend.schemas.slo import SloPreviewPublic, SloSearchSpec


def _design_field(f: DesignField) -> Any:
    """A request field with the declared default, bounds and description."""
    return Field(default=f.default, ge=f.minimum, le=f.maximum, description=f.description)


ExperimentStatus = Literal["draft", "queued", "running", "failed", "cancelled", "finished"]


class ExperimentBase(BaseModel):
    """A design as requests give it: every field bounded, and the fields checked together."""

    name: DbText = Field(min_length=1, max_length=200)
    description: DbText = Field(default="", max_length=10_000)
    template: Template = Template.CUSTOM
    factors: dict[str, Annotated[list[Any], Field(max_length=MAX_LEVELS)]] = Field(
        default_factory=dict, max_length=16
    )
    fixed: dict[str, Any] = Field(default_factory=dict, max_length=32)
    repetitions: int = _design_field(REPETITIONS)
    run_time_s: int = _design_field(RUN_TIME)
    warmup_s: int = _design_field(WARMUP)
    cooldown_s: int = _design_field(COOLDOWN)
    testbed_id: int | None = Field(default=None, ge=1, le=INT32_MAX)
    repetition_rule: RepetitionRuleSpec | None = Field(
        default=None,
        description="repetitions by a rule fixed before Start: configurations get more runs "
        "until their interval is narrow enough, up to a cap (None: `repetitions` each)",
    )
    fraction: FractionIn | None = Field(
        default=None, description="run a 2^(k-p) fraction of the two-level grid (None: all)"
    )
    slo_search: SloSearchSpec | None = Field(
        default=None,
        description="a latency-SLO search instead of a grid: factors stay empty, and each "
        "probe's offered load (rate_limit) is chosen by the search",
    )

    @field_validator("name")
    @classmethod
    def name_not_blank(cls, v: str) -> str:
        v = v.strip()
        if not v:
            raise ValueError("must not be blank")
        return v

    # On the whole model, after every field: a field left out takes its default, and the
    # default takes part in the check too (a warm-up of 304 s alone against the default 90 s
    # run time is refused, not stored).
    @model_validator(mode="after")
    def window_fits_run(self) -> "ExperimentBase":
        try:
            design_window(self.run_time_s, self.warmup_s, self.cooldown_s)
        except WindowError as problem:
            field = window_field(self.model_fields_set)
            raise ValidationError.from_exception_data(
                type(self).__name__,
                [
                    InitErrorDetails(
                        type=PydanticCustomError("value_error", str(problem)),
                        loc=(field,),
                        input=getattr(self, field),
                    )
                ],
            ) from None
        return self

    # The rule's minimum is what Start queues, i.e. `repetitions`: a request that gives a rule
    # without repetitions takes the minimum; one that gives both must agree.
    @model_validator(mode="after")
    def repetitions_are_rule_minimum(self) -> "ExperimentBase":
        rule = self.repetition_rule
        if rule is None or rule.min_repetitions == self.repetitions:
            return self
        if "repetitions" not in self.model_fields_set:
            self.repetitions = rule.min_repetitions
            return self
        raise ValidationError.from_exception_data(
            type(self).__name__,
            [
                InitErrorDetails(
                    type=PydanticCustomError(
                        "value_error",
                        "must equal repetitions ({repetitions}): the runs Start queues first",
                        {"repetitions": self.repetitions},
                    ),
                    loc=("repetition_rule", "min_repetitions"),
                    input=rule.min_repetitions,
                )
            ],
        ) from None


WINDOW_FIELDS = ("run_time_s", "warmup_s", "cooldown_s")


def window_field(sent: set[str]) -> str:
    # The field the 422 names: the last of the form's order the request gave, so the form
    # marks the value the user just typed (cool-down, then warm-up, then run time).
    for name in ("cooldown_s", "warmup_s", "run_time_s"):
        if name in sent:
            return name
    return "warmup_s"


class ExperimentCreate(ExperimentBase, RequestModel):
    """A new experiment's design."""


class ExperimentUpdate(ExperimentBase, RequestModel):
    """A replacement design (only while the experiment has no runs)."""


class StableWindowPublic(BaseModel):
    """The measured seconds of each run, [start_s, end_s) after the load starts."""

    start_s: int = Field(description="first measured second after the load starts, s")
    end_s: int = Field(description="end of the measured seconds (exclusive), s")


def served_window(run_time_s: int, warmup_s: int, cooldown_s: int) -> StableWindowPublic | None:
    """The design's window as served; None for a stored design that leaves nothing to measure
    (rows from before the rule was enforced on every field), so its pages still load."""
    try:
        w = design_window(run_time_s, warmup_s, cooldown_s)
    except WindowError:
        return None
    return StableWindowPublic(start_s=w.start_s, end_s=w.end_s)


class RunOverheadPublic(BaseModel):
    """The overhead per run the estimate adds to each run's run time, and where it comes from."""

    seconds: float = Field(description="seconds per run beyond its run time")
    source: Literal["measured", "default"] = Field(
        description="measured on the testbed (median of its recent successful runs), or the "
        "default while it has none"
    )
    runs: int = Field(description="successful runs measured (0: the default)")
    testbed_id: int | None = Field(description="the testbed (None: the local one)")
    testbed: str = Field(description="the testbed's name")


class PlanPointPublic(BaseModel):
    """One end of a repetition rule's range: its runs, their duration and cost."""

    repetitions: int = Field(description="repetitions of every configuration")
    runs: int = Field(description="runs in all")
    estimated_seconds: int = Field(description="estimated duration, s")
    cost: CostPublic | None = Field(
        default=None, description="estimated cost on its Azure testbed; null: not on Azure"
    )


class RuleRangePublic(BaseModel):
    """What a design with a repetition rule may run: from every configuration at the rule's
    minimum (what Start queues) to every configuration at its cap."""

    minimum: PlanPointPublic = Field(description="every configuration at min_repetitions")
    maximum: PlanPointPublic = Field(description="every configuration at max_repetitions")
    together: bool = Field(
        description="the configurations stop together (a factorial design: the same n in "
        "every cell); otherwise each stops on its own"
    )


class GridPreviewPublic(BaseModel):
    configurations: int
    runs: int
    estimated_seconds: int
    overhead: RunOverheadPublic = Field(
        description="the overhead per run the estimate used, and where it comes from"
    )
    stable_window: StableWindowPublic | None = Field(
        default=None, description="the measured seconds of each run"
    )
    cost: CostPublic | None = Field(
        default=None,
        description="estimated cost on its Azure testbed (estimated_seconds x the hourly price "
        "of its VMs, each price with date and source); null when not on an Azure testbed",
    )
    fraction: FractionPublic | None = Field(
        default=None, description="the 2^(k-p) fraction run, with its aliases (None: full grid)"
    )
    rule_range: RuleRangePublic | None = Field(
        default=None,
        description="with a repetition rule: its range from the minimum to the cap in runs, "
        "time and cost (the counts above are its minimum); null: fixed repetitions",
    )

    slo_search: SloPreviewPublic | None = Field(
        default=None,
        description="a latency-SLO search's bound: configurations, runs, duration and cost are "
        "then at most these (None: a grid, counted exactly)",
    )


class ElapsedPublic(BaseModel):
    """The actual time of an experiment's runs so far: from its first run's start to its
    last run's end."""

    started_at: datetime = Field(description="when its first run started")
    ended_at: datetime | None = Field(
        description="when its last run ended; null while runs are queued or running"
    )
    seconds: float | None = Field(description="ended_at - started_at, s; null while not ended")


class ExperimentPublic(BaseModel):
    """A stored experiment as served: the stored design as it is, without the request bounds,
    so one row that breaks a rule (stored before the rule, or by hand) never fails a list."""

    model_config = ConfigDict(from_attributes=True)

    id: int
    name: str
    description: str
    template: Template
    factors: dict[str, list[Any]] = Field(default_factory=dict)
    fixed: dict[str, Any] = Field(default_factory=dict)
    repetitions: int
    run_time_s: int = Field(description="seconds per run")
    warmup_s: int = Field(description="seconds cut at the start")
    cooldown_s: int = Field(description="seconds cut at the end")
    testbed_id: int | None
    repetition_rule: RepetitionRuleSpec | None = Field(
        default=None, description="the stored repetition rule (None: fixed repetitions)"
    )
    fraction: dict[str, Any] | None = Field(default=None, description="as designed")
    slo_search: dict[str, Any] | None = Field(
        default=None, description="the latency-SLO search of a search experiment; null: a grid"
    )
    kind: Literal["designed", "imported"] = Field(
        default="designed",
        description="designed (runs start here) or imported (runs brought in from earlier "
        "tool outputs; nothing runs here)",
    )
    provenance: dict[str, Any] | None = Field(
        default=None,
        description="an imported experiment's origin: source (upload or folder name), "
        "imported_at (ISO time), files; null for a designed one",
    )
    created_at: datetime
    updated_at: datetime
    status: ExperimentStatus
    run_counts: dict[str, int]
    runs_unsent: int
    preview: GridPreviewPublic
    elapsed: ElapsedPublic | None = Field(
        default=None, description="the actual time of its runs; null before a run started"
    )


class ExperimentsPublic(BaseModel):
    data: list[ExperimentPublic]
    count: int


class HasValues(Protocol):
    """A stored configuration (the ORM row), as ConfigurationPublic.of reads it."""

    id: int
    index: int
    values: dict[str, Any]


class ConfigurationPublic(BaseModel):
    model_config = ConfigDict(from_attributes=True)

    id: int
    index: int
    values: dict[str, Any]
    parameters: dict[str, Any] = Field(description="factor values plus fixed values and defaults")

    @classmethod
    def of(cls, c: HasValues, fixed: dict[str, Any]) -> "ConfigurationPublic":
        """A stored configuration of an experiment with fixed values `fixed`."""
        return cls(
            id=c.id,
            index=c.index,
            values=c.values,
            parameters=effective_parameters(c.values, fixed),
        )


class ConfigurationsPublic(BaseModel):
    data: list[ConfigurationPublic]
    count: int


class SameSystemPublic(BaseModel):
    """Grid points that run the same system: kept, but a difference between them is noise."""

    points: list[int] = Field(description="their positions in the grid (0 = the first point)")
    values: list[dict[str, Any]] = Field(description="their factor values")
    reasons: list[str] = Field(description="why they are one system, per factor they differ in")


class GridPreviewWithPoints(GridPreviewPublic):
    points: list[dict[str, Any]] = Field(description="the first grid points, at most 200")
    same_system: list[SameSystemPublic] = Field(
        default_factory=list,
        description="warnings: groups of configurations that are the same system (e.g. "
        "replication one and all with 1 server); they are kept and run",
    )
    power: PowerPublic | None = Field(
        default=None,
        description="for two-level factors: the full grid and its fractions, each with the "
        "smallest effect it detects (None unless every factor has two levels)",
    )


class ExperimentDuplicate(RequestModel):
    name: DbText = Field(min_length=1, max_length=200)
