"""Expanding an experiment's factors into its grid of configurations, checked and sized."""

import itertools
import math
from dataclasses import dataclass
from typing import Any

from backend.domain.parameters import ParameterError, check_configuration, coerce, defaults

# Levels of one factor: more could never fit a grid anyway (GRID_MAX_CONFIGURATIONS), and
# the cap keeps a request's checking cost bounded before anything else runs.
MAX_LEVELS = 1_000


class GridError(ValueError):
    """The design as a whole is invalid; `field` is the request field to blame."""

    def __init__(self, field: str, reason: str) -> None:
        super().__init__(f"{field}: {reason}")
        self.field = field
        self.reason = reason


def normalize_factors(factors: dict[str, list[Any]]) -> dict[str, list[Any]]:
    """Check every level of every factor; levels keep the user's order."""
    out: dict[str, list[Any]] = {}
    for name, levels in factors.items():
        if not isinstance(levels, list) or not levels:
            raise ParameterError(name, "a factor needs a non-empty list of levels")
        if len(levels) > MAX_LEVELS:
            raise ParameterError(name, f"{len(levels)} levels; the limit is {MAX_LEVELS}")
        coerced = [coerce(name, level) for level in levels]
        seen: set[tuple[type, Any]] = set()
        for level in coerced:
            # bool/int distinction matters here (True == 1), so the key is type and value.
            key = (type(level), level)
            if key in seen:
                raise ParameterError(name, f"level {level!r} is listed twice")
            seen.add(key)
        out[name] = coerced
    return out


def in_order(values: dict[str, Any], order: list[str]) -> dict[str, Any]:
    """`values` with the keys of `order` first, in that order (a factor order, or a stored
    configuration's values, whose JSONB keys PostgreSQL sorts), then any others as stored."""
    first = {k: values[k] for k in order if k in values}
    return {**first, **{k: v for k, v in values.items() if k not in first}}


def normalize_fixed(fixed: dict[str, Any]) -> dict[str, Any]:
    return {name: coerce(name, value) for name, value in fixed.items()}


def grid_size(factors: dict[str, list[Any]]) -> int:
    return math.prod(len(levels) for levels in factors.values())


def expand(
    factors: dict[str, list[Any]], fixed: dict[str, Any], *, memory_limit_mb: int
) -> list[dict[str, Any]]:
    """Every combination of factor levels, in row-major order of the factors as given.

    Returns only the factor values of each point; `effective_parameters` adds the rest.
    Each point is checked against the cross-parameter rules, so a grid that contains
    an impossible combination (3 replicas of 1 server) is rejected as a whole.
    """
    overlap = set(factors) & set(fixed)
    if overlap:
        raise GridError("fixed", f"{', '.join(sorted(overlap))} is both a factor and fixed")
    names = list(factors)
    points = [
        dict(zip(names, combo, strict=True)) for combo in itertools.product(*factors.values())
    ]
    for point in points:
        check_configuration(effective_parameters(point, fixed), memory_limit_mb=memory_limit_mb)
    return points


def effective_parameters(values: dict[str, Any], fixed: dict[str, Any]) -> dict[str, Any]:
    return {**defaults(), **fixed, **values}


@dataclass(frozen=True)
class GridPreview:
    configurations: int
    runs: int
    estimated_seconds: int


def preview(
    configurations: int, repetitions: int, run_time_s: int, overhead_s: float
) -> GridPreview:
    """Counts and the duration: each run its run time plus the overhead per run
    (backend.crud.overhead.run_overhead: measured on the testbed, or the default)."""
    runs = configurations * repetitions
    return GridPreview(configurations, runs, round(runs * (run_time_s + overhead_s)))
