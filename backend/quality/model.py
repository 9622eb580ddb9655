"""The thresholds every quality rule reads, from the settings (flags: backend.domain.quality)."""

from dataclasses import dataclass

from backend.core.config import settings


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
