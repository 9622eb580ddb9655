"""The declared parameter schema and the template catalogue, as served to the UI."""

from typing import Any

from pydantic import BaseModel


class ParameterPublic(BaseModel):
    name: str
    kind: str
    default: Any
    description: str
    unit: str | None
    minimum: int | None
    maximum: int | None
    choices: list[str]


class TemplatePublic(BaseModel):
    id: str
    title: str
    description: str
    factors: dict[str, list[Any]]
    fixed: dict[str, Any]
    repetitions: int
    run_time_s: int
    warmup_s: int
    cooldown_s: int
    measured: list[str]
