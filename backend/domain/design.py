"""Checking a whole experiment design: parameters, grid rules and size limits."""

from dataclasses import dataclass
from typing import Any

from backend.domain.grid import GridError, expand, grid_size, normalize_factors, normalize_fixed
from backend.domain.parameters import ParameterError


class DesignError(ValueError):
    """An invalid design; `loc` is the path of the offending request field."""

    def __init__(self, loc: tuple[str, ...], reason: str) -> None:
        super().__init__(f"{'.'.join(loc)}: {reason}")
        self.loc = loc
        self.reason = reason


@dataclass(frozen=True)
class Design:
    factors: dict[str, list[Any]]
    fixed: dict[str, Any]
    points: list[dict[str, Any]]


def check_design(
    factors: dict[str, list[Any]],
    fixed: dict[str, Any],
    repetitions: int,
    *,
    max_configurations: int,
    max_runs: int,
) -> Design:
    """Normalize and check a design, or raise DesignError naming the field to fix."""
    try:
        norm_factors = normalize_factors(factors)
    except ParameterError as e:
        raise DesignError(("factors", e.name), e.reason) from e
    try:
        norm_fixed = normalize_fixed(fixed)
    except ParameterError as e:
        raise DesignError(("fixed", e.name), e.reason) from e

    size = grid_size(norm_factors)
    if size > max_configurations:
        raise DesignError(
            ("factors",), f"the grid has {size} configurations; the limit is {max_configurations}"
        )
    if size * repetitions > max_runs:
        raise DesignError(
            ("repetitions",),
            f"{size} configurations x {repetitions} repetitions = {size * repetitions} runs; "
            f"the limit is {max_runs}",
        )
    try:
        points = expand(norm_factors, norm_fixed)
    except GridError as e:
        raise DesignError((e.field,), e.reason) from e
    except ParameterError as e:
        section = "factors" if e.name in norm_factors else "fixed"
        raise DesignError((section, e.name), e.reason) from e
    return Design(norm_factors, norm_fixed, points)
