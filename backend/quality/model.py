"""What a quality rule answers: a flag with its rule, reason and numbers, and the thresholds."""

from dataclasses import dataclass, field
from enum import StrEnum

from backend.core.config import settings


class FlagCode(StrEnum):
    """Every quality flag a run or configuration can carry (README "Quality flags")."""

    OUTLIER_REPETITION = "outlier_repetition"
    TREND = "trend"
    STEP = "step"
    WARMUP = "warmup"
    THROUGHPUT_DISAGREEMENT = "throughput_disagreement"
    INTERACTIVE_LAW = "interactive_law"
    UNEXPECTED_MISSES = "unexpected_misses"
    TOOL_ERRORS = "tool_errors"
    CPU_STEAL = "cpu_steal"


# Flags that read the whole run, not the window: a re-cut window keeps them as stored.
WHOLE_RUN = frozenset({FlagCode.TOOL_ERRORS})


@dataclass(frozen=True)
class Flag:
    """One raised flag: `rule` names the test and threshold, `reason` says what was seen,
    `numbers` hold the figures it was decided on."""

    code: FlagCode
    rule: str
    reason: str
    numbers: dict[str, float] = field(default_factory=dict)
    run_id: int | None = None  # the flagged repetition of a configuration flag


@dataclass(frozen=True)
class RunQuality:
    """A run's flags and the checks that could not be made (with why)."""

    flags: list[Flag]
    not_measured: dict[str, str]


@dataclass(frozen=True)
class Thresholds:
    """The settings every rule reads (tests pass their own)."""

    outlier_z: float
    alpha: float
    min_shift: float
    warmup_probe_s: int
    throughput_tolerance: float
    interactive_tolerance: float
    miss_ratio: float
    steal_pct: float

    @classmethod
    def from_settings(cls) -> "Thresholds":
        return cls(
            outlier_z=settings.QUALITY_OUTLIER_Z,
            alpha=settings.QUALITY_ALPHA,
            min_shift=settings.QUALITY_MIN_SHIFT,
            warmup_probe_s=settings.QUALITY_WARMUP_PROBE_S,
            throughput_tolerance=settings.QUALITY_THROUGHPUT_TOLERANCE,
            interactive_tolerance=settings.QUALITY_INTERACTIVE_TOLERANCE,
            miss_ratio=settings.QUALITY_MISS_RATIO,
            steal_pct=settings.QUALITY_STEAL_PCT,
        )
