"""2^k r factorial design schemas."""

from typing import Any

from pydantic import BaseModel, Field

from backend.schemas.analysis.common import Units
from backend.schemas.base import RequestModel
from backend.schemas.limits import Confidence, Measured, TCritical

T_CRITICAL_DOC = (
    "critical value t of the effects' confidence intervals, q -/+ t s_q, as given (e.g. a "
    "table value such as 1.86 for 8 degrees of freedom at 90%); default: the exact quantile "
    "t[1 - alpha/2; 2^k (r - 1)] of `confidence`"
)


class FactorialRequest(RequestModel):
    factors: list[str] = Field(min_length=2, max_length=6)
    y: list[list[Measured]] = Field(min_length=4, max_length=64)
    confidence: Confidence | None = 0.90
    multiplicative: bool = False
    t_critical: TCritical | None = Field(default=None, description=T_CRITICAL_DOC)


class EffectPublic(BaseModel):
    name: str
    factors: list[str]
    label: str = Field(
        description="the effect in words, each factor from its -1 level (its first, as "
        'entered) to its +1 level: "Memcached servers 1 → 3"; the value is that change'
    )
    value: float
    sum_of_squares: float
    variation_percent: float
    ci_low: float | None
    ci_high: float | None
    significant: bool | None


class LenthPublic(BaseModel):
    pse: float
    margin_of_error: float
    simultaneous_margin: float
    half_normal_names: list[str]
    half_normal_abs_effects: list[float]
    half_normal_quantiles: list[float]


class NoEffectPublic(BaseModel):
    """A factor that has no effect by construction in some configurations."""

    factor: str = Field(description="the factor")
    configurations: list[int] = Field(
        description="indices of the configurations whose twin at the factor's other level is "
        "the same system"
    )
    where: str = Field(description='those configurations in words: "where servers = 1"')
    reason: str = Field(description="why its two levels are the same system there")
    text: str = Field(description="the note as the UI, the tables and the report print it")


class FactorialPublic(Units):
    factors: list[str] = Field(description="in the design's order: the first is A")
    levels: dict[str, list[Any]] | None = Field(
        default=None, description="factor -> its -1 and +1 level, in the order entered"
    )
    no_effect: list[NoEffectPublic] = Field(
        default_factory=list,
        description="factors that have no effect by construction in some configurations "
        "(e.g. replication at servers = 1): a measured effect there is noise",
    )
    replications: int
    multiplicative: bool
    sign_table: list[list[int]]
    effects: list[EffectPublic]
    sst: float
    sse: float
    error_percent: float
    error_variance: float | None
    effect_std: float | None
    confidence: float | None
    t_critical: float | None
    t_given: bool
    cell_means: list[float]
    predicted: list[list[float]]
    residuals: list[list[float]]
    qq_residuals: list[float]
    qq_normal_quantiles: list[float]
    lenth: LenthPublic | None
    main_effects: dict[str, list[float]]
    interactions: dict[str, list[float]]
