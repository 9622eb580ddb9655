"""Experiment request/response schemas. Parameter values are checked by backend.domain."""

from datetime import datetime
from typing import Annotated, Any, Literal, Protocol

from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, field_validator

from backend.domain.grid import MAX_LEVELS, effective_parameters
from backend.domain.templates import Template
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
    cooldown_s: int = Field(default=10, ge=0, le=3_600, description="seconds cut at the end")
    testbed_id: int | None = Field(default=None, ge=1, le=INT32_MAX)

    @field_validator("name")
    @classmethod
    def name_not_blank(cls, v: str) -> str:
        v = v.strip()
        if not v:
            raise ValueError("must not be blank")
        return v

    # On cooldown_s (validated after run_time_s and warmup_s), so the 422 names a field the
    # form can mark, in the words the form uses.
    @field_validator("cooldown_s")
    @classmethod
    def window_fits_run(cls, cooldown: int, info: ValidationInfo) -> int:
        run_time, warmup = info.data.get("run_time_s"), info.data.get("warmup_s")
        if run_time is None or warmup is None:
            return cooldown  # already reported at its own field
        if warmup + cooldown >= run_time:
            raise ValueError(
                f"warm-up plus cool-down ({warmup + cooldown} s) must be shorter than the run "
                f"time ({run_time} s), or nothing is left to measure"
            )
        return cooldown


class ExperimentCreate(ExperimentBase, RequestModel):
    """A new experiment's design."""


class ExperimentUpdate(ExperimentBase, RequestModel):
    """A replacement design (only while the experiment has no runs)."""


class GridPreviewPublic(BaseModel):
    configurations: int
    runs: int
    estimated_seconds: int


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
