"""Choose the multi-class solver: exact when its work fits the budget, else Bard-Schweitzer."""

from __future__ import annotations

from typing import Literal

from backend.analysis.mva.approximate import solve_approximate
from backend.analysis.mva.multiclass import (
    MAX_EXACT_WORK,
    MAX_LATTICE_CELLS,
    ClassSpec,
    MultiClassResult,
    exact_work,
    lattice_size,
    solve_multiclass,
)
from backend.analysis.mva.network import Station, StationKind

Method = Literal["exact", "approximate", "auto"]


def exact_fits(stations: tuple[Station, ...], classes: tuple[ClassSpec, ...]) -> bool:
    """Whether the exact lattice recursion stays within its memory and time budgets."""
    points = lattice_size(classes)
    multi = sum(1 for s in stations if s.kind is StationKind.MULTI and s.servers > 1)
    cells_ok = points * max(len(stations), 1) <= MAX_LATTICE_CELLS
    return cells_ok and exact_work(points, len(stations), multi) <= MAX_EXACT_WORK


def solve_multiclass_by(
    method: Method, stations: tuple[Station, ...], classes: tuple[ClassSpec, ...]
) -> MultiClassResult:
    """Solve with the named method; "auto" takes exact whenever it fits."""
    if method == "approximate" or (method == "auto" and not exact_fits(stations, classes)):
        return solve_approximate(stations, classes)
    return solve_multiclass(stations, classes)
