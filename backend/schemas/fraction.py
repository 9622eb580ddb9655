"""A design's fraction (2^(k-p) by generators or by resolution) and what its preview shows:
the generators, resolution and alias table, and the smallest effect each design detects."""

from typing import Literal

from pydantic import BaseModel, Field, model_validator

from backend.domain.fraction import MAX_FACTORS
from backend.domain.metrics import MetricName
from backend.schemas.base import RequestModel
from backend.schemas.limits import DbText


class FractionIn(RequestModel):
    """Run a 2^(k-p) fraction of the two-level grid instead of all of it: give the generators
    (factors lettered A, B, C, ... in the factors' order), or a resolution to get the smallest
    fraction that has it. Exactly one of the two."""

    generators: list[DbText] | None = Field(
        default=None,
        max_length=MAX_FACTORS - 2,
        description="e.g. ['D = AB', 'E = -AC']: a generated factor = a product of base factors",
    )
    resolution: int | None = Field(
        default=None, ge=3, le=MAX_FACTORS, description="3 = III, 4 = IV, 5 = V, ..."
    )

    @model_validator(mode="after")
    def one_of(self) -> "FractionIn":
        if (self.generators is None) == (self.resolution is None):
            raise ValueError("give either generators or a resolution")
        return self


class AliasTermPublic(BaseModel):
    name: str = Field(description="the effect's letters, e.g. 'BCD' ('I': the mean)")
    sign: Literal[1, -1] = Field(description="its sign in the column's estimate")


class AliasSetPublic(BaseModel):
    """Effects one column of the design cannot tell apart."""

    label: str = Field(description="e.g. 'A + BCD': what the column's effect estimates")
    terms: list[AliasTermPublic] = Field(description="up to three-factor interactions")
    omitted: int = Field(description="aliases of four or more factors, not listed")


class FractionPublic(BaseModel):
    """The fraction the design runs: its generators, defining relation, resolution, aliases."""

    k: int = Field(description="two-level factors")
    p: int = Field(description="generators: the design runs 2^(k-p) configurations")
    letters: dict[str, str] = Field(description="letter -> factor")
    generators: list[str] = Field(description="e.g. ['D = AB', 'E = AC']")
    defining_relation: list[str] = Field(description="the words equal to I (or -I)")
    resolution: int | None = Field(description="length of the shortest defining word")
    resolution_roman: str = Field(description="III, IV, V, ...")
    aliases: list[AliasSetPublic] = Field(
        description="one per column of the base factors' sign table, the mean ('I') first"
    )


class NoisePublic(BaseModel):
    """The noise the detectable effects assume."""

    std: float = Field(description="standard deviation of one run's main metric")
    metric: str | None = Field(description="the metric measured (None: typed in)")
    experiment_id: int | None = Field(description="the experiment it was measured on")
    experiment: str | None = Field(default=None, description="that experiment's name")
    degrees_of_freedom: int | None = Field(
        default=None, description="of the pooled std: runs minus configurations"
    )


class DesignOptionPublic(BaseModel):
    """One way to run the two-level factors, with the smallest effect it detects."""

    design: str = Field(description="e.g. '2^(7-4) III' or '2^3 full'")
    generators: list[str] = Field(description="none for the full grid")
    resolution: int | None = Field(description="None for the full grid")
    configurations: int = Field(description="distinct configurations, 2^(k-p)")
    runs: int = Field(description="configurations x repetitions")
    estimated_seconds: int = Field(description="runs x (run time + overhead per run), s")
    chosen: bool = Field(description="the design of this request")
    min_effect: float | None = Field(
        description="smallest difference between a factor's high- and low-level means found "
        "with the given power at alpha (None without a noise estimate)"
    )
    error_dof: int | None = Field(description="error degrees of freedom of its test (0: z test)")


class PowerPublic(BaseModel):
    """The two-level designs of the factors, each with the smallest effect it detects."""

    alpha: float = Field(description="significance level of each effect's test")
    power: float = Field(description="probability of finding the smallest effect")
    noise: NoisePublic | None = Field(description="None: no noise given, no effect sizes")
    designs: list[DesignOptionPublic] = Field(
        description="the full grid, the smallest fraction of each resolution, and the chosen"
    )


class PowerQuery(BaseModel):
    """The preview's power inputs (query parameters)."""

    alpha: float = 0.05
    power: float = 0.8
    noise_std: float | None = None
    noise_experiment_id: int | None = None
    noise_metric: MetricName = "throughput_per_s"
