"""Run response schemas."""

from datetime import datetime
from typing import Any

from pydantic import BaseModel, ConfigDict

from backend.models.enums import RunStatus


class RunPublic(BaseModel):
    model_config = ConfigDict(from_attributes=True)

    id: int
    experiment_id: int
    configuration_id: int
    repetition: int
    status: RunStatus
    attempt: int
    cancel_requested: bool
    started_at: datetime | None
    finished_at: datetime | None
    error: str | None
    worker: str | None
    hosts: dict[str, Any]
    tool_versions: dict[str, str]
    commands: list[dict[str, Any]]
    phase_timings: dict[str, float]


class RunsPublic(BaseModel):
    data: list[RunPublic]
    count: int


class StartResult(BaseModel):
    queued: int
    already_done: int
