"""Saturation analysis: the knee of each throughput curve and the cheapest near-max config."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from backend.analysis.errors import require

KNEE_FRACTION = 0.95
"""The default knee: the first load reaching 95 % of the curve's maximum throughput."""


@dataclass(frozen=True)
class Series:
    """One throughput curve, e.g. one worker count; `resource` orders configurations by cost."""

    label: str
    resource: float  # e.g. workers, servers: smaller is cheaper
    loads: tuple[float, ...]  # e.g. clients
    throughputs: tuple[float, ...]  # ops/s


@dataclass(frozen=True)
class Knee:
    """Smallest load of a series that reaches `fraction` of the series maximum."""

    label: str
    max_throughput_per_s: float
    load_at_max: float
    knee_load: float
    knee_throughput_per_s: float


@dataclass(frozen=True)
class SaturationResult:
    """Knees per series and the cheapest (resource, then load) point near the global max."""

    fraction: float
    knees: tuple[Knee, ...]
    global_max_per_s: float
    best_label: str
    best_resource: float
    best_load: float
    best_throughput_per_s: float


def _validate(series: Series) -> None:
    require(len(series.loads) > 0, "series", f"series {series.label!r} is empty")
    require(len(series.loads) == len(series.throughputs), "series", "one throughput per load")
    # A negative maximum would leave no load at `fraction` of it.
    require(
        all(np.isfinite(series.throughputs)) and min(series.throughputs) >= 0,
        "series",
        "throughputs must be finite and not negative",
    )


def knee(series: Series, fraction: float = KNEE_FRACTION) -> Knee:
    """Smallest load whose throughput is >= fraction x the maximum of this series."""
    _validate(series)
    require(0.0 < fraction <= 1.0, "fraction", "must lie in (0, 1]")
    order = np.argsort(series.loads, kind="stable")
    loads = np.asarray(series.loads)[order]
    xs = np.asarray(series.throughputs)[order]
    top = int(np.argmax(xs))
    first = int(np.flatnonzero(xs >= fraction * xs[top])[0])
    return Knee(
        series.label, float(xs[top]), float(loads[top]), float(loads[first]), float(xs[first])
    )


def saturation(series: list[Series], fraction: float = KNEE_FRACTION) -> SaturationResult:
    """Knee per series, then the config with the least resource, then the least load,

    whose throughput reaches `fraction` of the maximum over all series.
    """
    require(len(series) > 0, "series", "no series given")
    knees = tuple(knee(s, fraction) for s in series)
    global_max = max(k.max_throughput_per_s for k in knees)
    candidates = [
        (s.resource, load, -x, s.label)
        for s in series
        for load, x in zip(s.loads, s.throughputs, strict=True)
        if x >= fraction * global_max
    ]
    resource, load, neg_x, label = min(candidates)
    return SaturationResult(fraction, knees, global_max, label, resource, load, -neg_x)
