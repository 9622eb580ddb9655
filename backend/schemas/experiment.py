"""Experiment request/response schemas. Parameter values are checked by backend.domain."""

from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from backend.domain.templates import Template

ExperimentStatus = Literal["draft", "queued", "running", "failed", "cancelled", "finished"]


class ExperimentBase(BaseModel):
    name: str = Field(min_length=1, max_length=200)
    description: str = Field(default="", max_length=10_000)
    template: Template = Template.CUSTOM
    factors: dict[str, list[Any]] = Field(default_factory=dict, max_length=16)
    fixed: dict[str, Any] = Field(default_factory=dict, max_length=32)
    repetitions: int = Field(default=3, ge=1, le=100)
    run_time_s: int = Field(default=90, ge=5, le=86_400, description="seconds per run")
    warmup_s: int = Field(default=10, ge=0, le=3_600, description="seconds cut at the start")
    cooldown_s: int = Field(default=10, ge=0, le=3_600, description="seconds cut at the end")
    testbed_id: int | None = None

    @field_validator("name")
    @classmethod
    def name_not_blank(cls, v: str) -> str:
        v = v.strip()
        if not v:
            raise ValueError("must not be blank")
        return v

    @model_validator(mode="after")
    def window_fits_run(self) -> "ExperimentBase":
        if self.warmup_s + self.cooldown_s >= self.run_time_s:
            raise ValueError(
                f"warmup_s + cooldown_s ({self.warmup_s + self.cooldown_s} s) must be shorter "
                f"than run_time_s ({self.run_time_s} s), or nothing is left to measure"
            )
        return self


class ExperimentCreate(ExperimentBase):
    pass


class ExperimentUpdate(ExperimentBase):
    pass


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
    preview: GridPreviewPublic


class ExperimentsPublic(BaseModel):
    data: list[ExperimentPublic]
    count: int


class ConfigurationPublic(BaseModel):
    model_config = ConfigDict(from_attributes=True)

    id: int
    index: int
    values: dict[str, Any]
    parameters: dict[str, Any] = Field(description="factor values plus fixed values and defaults")


class ConfigurationsPublic(BaseModel):
    data: list[ConfigurationPublic]
    count: int


class GridPreviewWithPoints(GridPreviewPublic):
    points: list[dict[str, Any]] = Field(description="the first grid points, at most 200")


class ExperimentDuplicate(BaseModel):
    name: str = Field(min_length=1, max_length=200)
