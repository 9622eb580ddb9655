"""Quality flag schemas: flags of runs and configurations, re-run flagged, a run's attempts."""

from datetime import datetime
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from backend.domain.quality import Flag, FlagCode, RunQuality


class FlagPublic(BaseModel):
    """One flag: the rule (test and threshold), what was seen, and the numbers."""

    code: FlagCode = Field(description="which check raised it")
    rule: str = Field(description="the test and threshold applied, e.g. the modified z-score")
    reason: str = Field(description="what was seen, in words, with its figures")
    numbers: dict[str, float] = Field(
        description="the figures it was decided on (p-values, relative differences as fractions)"
    )
    run_id: int | None = Field(
        default=None, description="configuration flags: the flagged repetition's run"
    )

    @classmethod
    def of(cls, flag: Flag) -> "FlagPublic":
        return cls(
            code=flag.code,
            rule=flag.rule,
            reason=flag.reason,
            numbers=flag.numbers,
            run_id=flag.run_id,
        )


class RunQualityPublic(BaseModel):
    run_id: int
    configuration_id: int
    repetition: int
    flags: list[FlagPublic] = Field(description="the run's raised flags")
    not_measured: dict[str, str] = Field(description="checks not made, with why")

    @classmethod
    def of(
        cls, run_id: int, configuration_id: int, repetition: int, q: RunQuality
    ) -> "RunQualityPublic":
        return cls(
            run_id=run_id,
            configuration_id=configuration_id,
            repetition=repetition,
            flags=[FlagPublic.of(f) for f in q.flags],
            not_measured=q.not_measured,
        )


class ConfigurationQualityPublic(BaseModel):
    configuration_id: int
    flags: list[FlagPublic] = Field(description="the configuration's own: outlier repetitions")
    flagged_runs: list[int] = Field(description="its runs carrying flags of their own")


class ExperimentQualityPublic(BaseModel):
    window_start_s: int | None
    window_end_s: int | None
    thresholds: dict[str, float] = Field(description="the settings the rules used")
    runs: list[RunQualityPublic]
    configurations: list[ConfigurationQualityPublic]
    flagged_run_ids: list[int] = Field(
        description="runs re-run flagged would queue: own flags or an outlier repetition"
    )


class RerunResult(BaseModel):
    queued: int = Field(description="runs queued for a new attempt")
    run_ids: list[int] = Field(description="ids of the runs queued")


class AttemptOutcomePublic(BaseModel):
    throughput_per_s: float | None
    response_time_us: float | None
    flags: list[FlagPublic] = Field(description="the attempt's quality flags at ingest")


class RunAttemptPublic(BaseModel):
    model_config = ConfigDict(from_attributes=True)

    attempt: int
    worker: str
    started_at: datetime
    finished_at: datetime | None
    outcome: AttemptOutcomePublic | None = Field(
        description="window means and flags of a successful attempt; None: it stored nothing"
    )
    in_use: bool = Field(description="the results shown are this attempt's")


class RunAttemptsPublic(BaseModel):
    data: list[RunAttemptPublic]
    count: int


def outcome_public(outcome: dict[str, Any] | None) -> AttemptOutcomePublic | None:
    return None if outcome is None else AttemptOutcomePublic.model_validate(outcome)
