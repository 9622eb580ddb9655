"""The declared parameter schema and the template catalogue, as served to the UI."""

from typing import Any

from pydantic import BaseModel, Field


class ParameterPublic(BaseModel):
    name: str
    kind: str
    default: Any
    description: str
    label: str = Field(
        description="how running text names it, with its unit where the unit is not already "
        'named: "value size (bytes)"'
    )
    title: str = Field(
        description="how axis titles, column headings and selects name it: the label with a "
        'capital first letter ("Value size (bytes)"), as every figure prints it'
    )
    legend: str = Field(
        description='one level in words: {v} the value, {s} a plural "s" ("{v} worker thread{s}")'
    )
    unit: str | None
    minimum: int | None
    maximum: int | None
    choices: list[str]


class MetricPublic(BaseModel):
    """One row of the results core's metric table."""

    name: str
    label: str = Field(description='how running text names it ("99th percentile ...")')
    title: str = Field(
        description="how axis titles, column headings and selects name it: the label with a "
        'capital first letter ("99th percentile response time"), as every figure prints it'
    )
    unit: str
    sources: list[str] = Field(description="which sides report it: client, middleware")


class DesignFieldPublic(BaseModel):
    """One design field besides the parameters (repetitions, run time, warm-up, cool-down)."""

    name: str
    label: str = Field(description='how a form names it: "Run time"')
    unit: str | None
    default: int
    minimum: int
    maximum: int
    description: str


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
