"""Axes of the parallel coordinates and brushing on them: the one rule for both.

An axis gives every configuration a number: an experiment its position in the selection, a
numeric parameter its value, a text or yes/no parameter the index of its level (levels in
order), a metric its mean over repetitions (NaN when not measured). The figure draws these
numbers and a brush is a set of intervals per axis in the same numbers, so the server
resolves a brush to configurations itself: the client sends a few intervals, never the
(up to 100,000) ids they select.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from backend.compare.groups import level_order

EXPERIMENT_AXIS = "experiment"
"""The axis key of the experiment a configuration belongs to."""

Interval = tuple[float, float]


@dataclass(frozen=True)
class AxisRow:
    """What the axes need of one configuration: its effective parameters and metric means."""

    experiment_id: int
    configuration_id: int
    params: Mapping[str, Any]
    metrics: Mapping[str, float | None]


@dataclass(frozen=True)
class Axis:
    """One axis: a number per row, and the levels a categorical axis' numbers stand for."""

    key: str
    values: list[float]
    levels: list[Any] | None = None

    @property
    def categorical(self) -> bool:
        return self.levels is not None


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _categorical(key: str, raw: Sequence[Any]) -> Axis:
    levels = sorted({repr(v): v for v in raw}.values(), key=level_order)
    index = {repr(v): float(i) for i, v in enumerate(levels)}
    return Axis(key, [index[repr(v)] for v in raw], levels)


def axis_of(
    key: str, rows: Sequence[AxisRow], experiment_order: Sequence[int], metrics: set[str]
) -> Axis:
    """The axis `key` (experiment, a metric of `metrics`, else a parameter) over `rows`."""
    if key == EXPERIMENT_AXIS:
        position = {e: float(i) for i, e in enumerate(experiment_order)}
        return Axis(key, [position[r.experiment_id] for r in rows], list(experiment_order))
    if key in metrics:
        return Axis(key, [_mean(r.metrics.get(key)) for r in rows])
    raw: list[Any] = [r.params.get(key) for r in rows]
    numbers = [float(v) for v in raw if _is_number(v)]
    if raw and len(numbers) == len(raw):
        return Axis(key, numbers)
    return _categorical(key, raw)


def _mean(value: float | None) -> float:
    return float("nan") if value is None else float(value)


def _inside(value: float, intervals: Sequence[Interval]) -> bool:
    # NaN (not measured) lies in no interval: an unmeasured line is never brushed.
    return any(lo <= value <= hi for lo, hi in intervals)


def brushed_ids(
    rows: Sequence[AxisRow],
    brush: Mapping[str, Sequence[Interval]] | None,
    experiment_order: Sequence[int],
    metrics: set[str],
) -> set[int] | None:
    """The configurations inside every brushed axis (any of its intervals); None: no brush."""
    if not brush:
        return None
    axes = [axis_of(k, rows, experiment_order, metrics) for k in brush]
    return {
        r.configuration_id
        for i, r in enumerate(rows)
        if all(_inside(a.values[i], brush[a.key]) for a in axes)
    }


def measured(value: float) -> bool:
    """A metric axis' number that is a measurement (not NaN)."""
    return not math.isnan(value)
