"""What a quality rule answers: a flag with its rule, reason and numbers (the types the rules,
the stored JSON and the served schemas share; the rules and thresholds are backend.quality)."""

from dataclasses import dataclass, field
from enum import StrEnum


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
    MEMORY_CAP = "memory_cap"


# Flags that read the whole run, not the window: a re-cut window keeps them as stored.
WHOLE_RUN = frozenset({FlagCode.TOOL_ERRORS, FlagCode.MEMORY_CAP})


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
