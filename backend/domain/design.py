"""Checking a whole experiment design: parameters, grid rules and size limits."""

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from backend.domain.fraction import Fraction, FractionError, coded_points, resolve
from backend.domain.grid import (
    GridError,
    effective_parameters,
    expand,
    grid_size,
    normalize_factors,
    normalize_fixed,
)
from backend.domain.parameters import ParameterError, check_configuration


class DesignError(ValueError):
    """An invalid design; `loc` is the path of the offending request field."""

    def __init__(self, loc: tuple[str, ...], reason: str) -> None:
        super().__init__(f"{'.'.join(loc)}: {reason}")
        self.loc = loc
        self.reason = reason


class DesignErrors(ValueError):
    """Every problem found in a design at once (never empty), so a form can mark them all."""

    def __init__(self, errors: list[DesignError]) -> None:
        super().__init__("; ".join(str(e) for e in errors))
        self.errors = errors


@dataclass(frozen=True)
class Design:
    factors: dict[str, list[Any]]
    fixed: dict[str, Any]
    points: list[dict[str, Any]]
    fraction: Fraction | None = None


def parameter_problems(
    factors: dict[str, Any], fixed: dict[str, Any]
) -> tuple[dict[str, list[Any]], dict[str, Any], list[DesignError]]:
    """Each factor and each fixed value checked on its own: the valid ones normalized, and one
    error per bad parameter (raw request input is fine: a factor that is no list is an error)."""
    norm_factors: dict[str, list[Any]] = {}
    norm_fixed: dict[str, Any] = {}
    errors: list[DesignError] = []
    for name, levels in factors.items():
        try:
            norm_factors |= normalize_factors({name: levels})
        except ParameterError as e:
            errors.append(DesignError(("factors", e.name), e.reason))
    for name, value in fixed.items():
        try:
            norm_fixed |= normalize_fixed({name: value})
        except ParameterError as e:
            errors.append(DesignError(("fixed", e.name), e.reason))
    return norm_factors, norm_fixed, errors


def check_design(
    factors: dict[str, list[Any]],
    fixed: dict[str, Any],
    repetitions: int,
    *,
    max_configurations: int,
    max_runs: int,
    memory_limit_mb: int,
    fraction: Mapping[str, Any] | None = None,
) -> Design:
    """Normalize and check a design, or raise DesignErrors naming every field to fix.

    The grid's combinations are checked only once every parameter and the size are valid:
    before that its points are not known (and may be too many to expand). With `fraction`
    ({"generators": [...]} or {"resolution": n}) the points are that 2^(k-p) fraction of the
    two-level grid."""
    norm_factors, norm_fixed, errors = parameter_problems(factors, fixed)
    overlap = set(factors) & set(fixed)
    if overlap:
        errors.append(
            DesignError(("fixed",), f"{', '.join(sorted(overlap))} is both a factor and fixed")
        )
    size = grid_size(factors)
    if size > max_configurations:
        errors.append(
            DesignError(
                ("factors",),
                f"the grid has {size} configurations; the limit is {max_configurations}",
            )
        )
    elif size * repetitions > max_runs:
        errors.append(
            DesignError(
                ("repetitions",),
                f"{size} configurations x {repetitions} repetitions = {size * repetitions} "
                f"runs; the limit is {max_runs}",
            )
        )
    frac = None
    if fraction is not None and not errors:
        frac = _fraction(norm_factors, fraction, errors)
    if errors:
        raise DesignErrors(errors)
    try:
        if frac is None:
            points = expand(norm_factors, norm_fixed, memory_limit_mb=memory_limit_mb)
        else:  # only the fraction's points run, so only they must be possible
            points = coded_points(frac, norm_factors)
            for point in points:
                check_configuration(
                    effective_parameters(point, norm_fixed), memory_limit_mb=memory_limit_mb
                )
    except GridError as e:
        raise DesignErrors([DesignError((e.field,), e.reason)]) from e
    except ParameterError as e:
        section = "factors" if e.name in norm_factors else "fixed"
        raise DesignErrors([DesignError((section, e.name), e.reason)]) from e
    return Design(norm_factors, norm_fixed, points, frac)


def _fraction(
    factors: dict[str, list[Any]], fraction: Mapping[str, Any], errors: list[DesignError]
) -> Fraction | None:
    """The fraction of the two-level grid, or None with its problems added to `errors`."""
    for name, levels in factors.items():
        if len(levels) != 2:
            errors.append(
                DesignError(
                    ("factors", name),
                    f"{len(levels)} levels; a fractional design needs exactly two per factor",
                )
            )
    if errors:
        return None
    try:
        return resolve(len(factors), fraction.get("generators"), fraction.get("resolution"))
    except FractionError as e:
        errors.append(DesignError(("fraction", e.field), e.reason))
        return None
