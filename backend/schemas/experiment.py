"""Experiment request/response schemas. Parameter values are checked by backend.domain."""

from datetime import datetime
from typing import Annotated, Any, Literal, Protocol

from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, field_validator

from backend.domain.grid import MAX_LEVELS, effective_parameters
from backend.domain.templates import Template
from backend.domain.window import WindowError, design_window
from backend.schemas.base import RequestModel
from backend.schemas.limits import INT32_MAX, DbText

ExperimentStatus = Literal["draft", "queued", "running", "failed", "cancelled", "finished"]


class ExperimentBase(BaseModel):
    name: DbText = Field(min_length=1, max_length=200)
    description: DbText = Field(default="", max_length=10_000)
    template: Template = Template.CUSTOM
    factors: dict[str, Annotated[list[Any], Field(max_length=MAX_LEVELS)]] = Field(
        default_factory=dict, max_length=16
    )
    fixed: dict[str, Any] = Field(default_factory=dict, max_length=32)
    repetitions: int = Field(default=3, ge=1, le=100)
    run_time_s: int = Field(default=90, ge=5, le=86_400, description="seconds per run")
    warmup_s: int = Field(default=10, ge=0, le=3_600, description="seconds cut at the start")
    # validate_default: the window check on cooldown_s must run when only warmup_s is sent.
    cooldown_s: int = Field(
        default=10, ge=0, le=3_600, validate_default=True, description="seconds cut at the end"
    )
    testbed_id: int | None = Field(default=None, ge=1, le=INT32_MAX)

    @field_validator("name")
    @classmethod
    def name_not_blank(cls, v: str) -> str:
        v = v.strip()
        if not v:
            raise ValueError("must not be blank")
        return v


class ExperimentRequest(ExperimentBase, RequestModel):
    """A design sent by a client: checked as a whole. Served experiments are not re-checked,
    so a row stored before a rule existed never fails a page."""

    # On cooldown_s (validated after run_time_s and warmup_s), so the 422 names a field the
    # form can mark, in the words the form uses.
    @field_validator("cooldown_s")
    @classmethod
    def window_fits_run(cls, cooldown: int, info: ValidationInfo) -> int:
        run_time, warmup = info.data.get("run_time_s"), info.data.get("warmup_s")
        if run_time is None or warmup is None:
            return cooldown  # already reported at its own field
        design_window(run_time, warmup, cooldown)  # a WindowError is a ValueError: a 422
        return cooldown


class ExperimentCreate(ExperimentRequest):
    """A new experiment's design."""


class ExperimentUpdate(ExperimentRequest):
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


class GridPreviewPublic(BaseModel):
    configurations: int
    runs: int
    estimated_seconds: int
    stable_window: StableWindowPublic | None = Field(
        default=None, description="the measured seconds of each run"
    )


class ExperimentPublic(ExperimentBase):
    model_config = ConfigDict(from_attributes=True)

    id: int
    created_at: datetime
    updated_at: datetime
    status: ExperimentStatus
    run_counts: dict[str, int]
    runs_unsent: int
    preview: GridPreviewPublic


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


class GridPreviewWithPoints(GridPreviewPublic):
    points: list[dict[str, Any]] = Field(description="the first grid points, at most 200")


class ExperimentDuplicate(RequestModel):
    name: DbText = Field(min_length=1, max_length=200)
