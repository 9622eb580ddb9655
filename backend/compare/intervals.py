"""Is a difference real or noise? Welch's t interval of the difference of two means.

The samples are repetition means (one value per run), never per-second values: seconds of one
run are autocorrelated, so treating them as independent draws would make every difference look
significant. A configuration is summarised as (n, mean, sample std) over its repetitions.

The repetitions are summarised and the t quantile taken by the results core
(backend.results.aggregate), as every other interval of repetitions. Also the bands of
grouped curves: several configurations' repetitions pooled into one sample,
then mean +/- std, standard error or a Student t confidence interval.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from backend.analysis.errors import require
from backend.domain.compare import BandKind, Verdict
from backend.results.aggregate import summarize, t_quantile


@dataclass(frozen=True)
class Sample:
    """Repetition means of one metric of one configuration: count, mean, sample std (ddof 1)."""

    n: int
    mean: float
    std: float | None  # None for a single repetition

    @staticmethod
    def of(values: Sequence[float]) -> Sample:
        """The results core's summary of the repetitions (`aggregate.summarize`)."""
        require(len(values) > 0, "values", "no data")
        summary = summarize(values)
        return Sample(summary.n, summary.mean, summary.std)


@dataclass(frozen=True)
class Difference:
    """other - base, with its Welch interval and the relative difference 100 (y - x) / x."""

    level: float
    difference: float
    low: float | None
    high: float | None
    dof: float | None  # Welch-Satterthwaite degrees of freedom
    relative_percent: float | None  # None when the base mean is 0
    relative_low: float | None  # Fieller interval of the ratio, None when unbounded
    relative_high: float | None
    verdict: Verdict


def _check_level(level: float) -> None:
    require(0.5 <= level < 1.0, "level", "must lie in [0.5, 1)")


def welch_difference(base: Sample, other: Sample, level: float = 0.95) -> Difference:
    """Welch's unequal-variance t interval for mean(other) - mean(base).

    The relative interval is Fieller's for the ratio of the two means (independent samples,
    same t quantile), so the base's own uncertainty widens it; it is unbounded (None) when
    the base mean is not itself distinguishable from 0.
    """
    _check_level(level)
    d = other.mean - base.mean
    x, y = base.mean, other.mean
    rel = 100.0 * d / x if x != 0 else None
    if base.n < 2 or other.n < 2 or base.std is None or other.std is None:
        return Difference(level, d, None, None, None, rel, None, None, "insufficient")
    vx = base.std**2 / base.n
    vy = other.std**2 / other.n
    if vx + vy == 0:
        return Difference(level, d, None, None, None, rel, None, None, "insufficient")
    dof = (vx + vy) ** 2 / (vx**2 / (base.n - 1) + vy**2 / (other.n - 1))
    t = t_quantile(dof, level)
    half = t * math.sqrt(vx + vy)
    low, high = d - half, d + half
    verdict: Verdict = "significant" if low > 0 or high < 0 else "not_distinguishable"
    rel_low, rel_high = _fieller(x, y, vx, vy, t)
    return Difference(level, d, low, high, dof, rel, rel_low, rel_high, verdict)


def _fieller(
    x: float, y: float, vx: float, vy: float, t: float
) -> tuple[float | None, float | None]:
    """Interval of 100 (y/x - 1) solving (y - r x)^2 = t^2 (vy + r^2 vx) for r."""
    a = x * x - t * t * vx
    if a <= 0:
        return None, None
    b = x * y
    c = y * y - t * t * vy
    disc = b * b - a * c
    root = math.sqrt(max(disc, 0.0))
    return 100.0 * ((b - root) / a - 1.0), 100.0 * ((b + root) / a - 1.0)


def pool(samples: Iterable[Sample]) -> Sample:
    """All repetitions of several configurations as one sample (exact, from n/mean/std)."""
    items = list(samples)
    require(len(items) > 0, "samples", "no data")
    n = sum(s.n for s in items)
    mean = math.fsum(s.n * s.mean for s in items) / n
    if n < 2:
        return Sample(n, mean, None)
    within = math.fsum((s.n - 1) * (s.std or 0.0) ** 2 for s in items)
    between = math.fsum(s.n * (s.mean - mean) ** 2 for s in items)
    return Sample(n, mean, math.sqrt((within + between) / (n - 1)))


@dataclass(frozen=True)
class Band:
    """A curve point: the mean and the band around it (None where undefined: one run)."""

    n: int
    mean: float
    low: float | None
    high: float | None


def band(sample: Sample, kind: BandKind, level: float = 0.95) -> Band:
    """mean +/- std, +/- std / sqrt(n), or the two-sided t interval of the mean."""
    _check_level(level)
    if sample.std is None or sample.n < 2:
        return Band(sample.n, sample.mean, None, None)
    if kind == "std":
        half = sample.std
    elif kind == "se":
        half = sample.std / math.sqrt(sample.n)
    else:
        t = t_quantile(sample.n - 1, level)
        half = t * sample.std / math.sqrt(sample.n)
    return Band(sample.n, sample.mean, sample.mean - half, sample.mean + half)
