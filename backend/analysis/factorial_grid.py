"""Pick the factors and levels of a 2^k r design out of an experiment's configuration grid."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from backend.analysis.errors import AnalysisError, require
from backend.analysis.factorial import MAX_FACTORS, MIN_FACTORS, FloatArray


@dataclass(frozen=True)
class GridDesign:
    """Factors (low, high levels) and the responses in standard order, shape (2^k, r)."""

    factors: tuple[str, ...]
    levels: dict[str, tuple[Any, Any]]
    y: FloatArray


def _sort_key(value: Any) -> tuple[int, Any]:
    # Numbers sort numerically, everything else as text; numbers come first.
    return (
        (0, value)
        if isinstance(value, int | float) and not isinstance(value, bool)
        else (1, str(value))
    )


def design_from_grid(
    configurations: list[dict[str, Any]],
    responses: list[list[float]],
    factors: tuple[str, ...] | None = None,
    order: dict[str, list[Any]] | None = None,
) -> GridDesign:
    """Map grid points to sign-table rows; a factor's first level is -1.

    `order` is the design's factors with their levels as the user entered them: it sets the
    factors' order and which level is -1 (the design page says "the first level is -1"). A key
    it does not name is ordered by name, its levels by value. `factors` (in the order given)
    defaults to every key that takes exactly two values in the grid. Raises AnalysisError
    unless the grid is a full 2^k design with the same r in every cell.
    """
    require(len(configurations) > 0, "configurations", "the experiment has no configurations")
    require(len(configurations) == len(responses), "responses", "one list per configuration")
    given = order or {}
    present = {k for c in configurations for k in c}
    keys = [k for k in given if k in present] + sorted(present - set(given))
    values = {k: _levels(k, configurations, given.get(k)) for k in keys}
    if factors is None:
        factors = tuple(k for k in keys if len(values[k]) == 2)
    for f in factors:
        if f not in values:
            raise AnalysisError("factors", f"{f!r} is not a factor of this experiment")
        if len(values[f]) != 2:
            raise AnalysisError(
                "factors", f"{f!r} has {len(values[f])} levels; a 2^k design needs exactly 2"
            )
    k = len(factors)
    require(
        MIN_FACTORS <= k <= MAX_FACTORS,
        "factors",
        f"a 2^k design needs {MIN_FACTORS}..{MAX_FACTORS} two-level factors, found {k}",
    )
    cells: dict[int, list[float]] = {}
    for config, ys in zip(configurations, responses, strict=True):
        row = sum(1 << j for j, f in enumerate(factors) if _freeze(config.get(f)) == values[f][1])
        if row in cells:
            # Pooling grid points that differ in an unselected factor would fake replications.
            others = [k for k in keys if k not in factors and len(values[k]) > 1]
            raise AnalysisError(
                "factors",
                f"several configurations share one cell; "
                f"the factors {others} also vary: select them too",
            )
        cells[row] = list(ys)
    if len(cells) != 2**k:
        raise AnalysisError(
            "configurations", f"the grid has {len(cells)} of the {2**k} cells of a 2^{k} design"
        )
    reps = {len(v) for v in cells.values()}
    if len(reps) != 1 or 0 in reps:
        raise AnalysisError(
            "responses", f"every cell needs the same number of repetitions, found {sorted(reps)}"
        )
    y = np.array([cells[i] for i in range(2**k)], dtype=np.float64)
    return GridDesign(factors, {f: (values[f][0], values[f][1]) for f in factors}, y)


def _levels(key: str, configurations: list[dict[str, Any]], given: list[Any] | None) -> list[Any]:
    """The values `key` takes in the grid: in the given order, else sorted."""
    seen = {_freeze(c.get(key)) for c in configurations}
    if given is None:
        return sorted(seen, key=_sort_key)
    ordered = [_freeze(v) for v in given if _freeze(v) in seen]
    return ordered + sorted(seen - set(ordered), key=_sort_key)


def _freeze(value: Any) -> Any:
    # JSON lists are unhashable; compare them as tuples.
    return tuple(value) if isinstance(value, list) else value
