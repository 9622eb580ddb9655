"""The preview's warning about grid points that run the same system (backend.domain.same_system)."""

from typing import Any

from backend.domain.grid import effective_parameters
from backend.domain.same_system import duplicates
from backend.schemas.experiment import SameSystemPublic


def same_system_public(
    points: list[dict[str, Any]], fixed: dict[str, Any]
) -> list[SameSystemPublic]:
    """Each group of a design's points that are one system, with why."""
    params = [effective_parameters(p, fixed) for p in points]
    return [
        SameSystemPublic(
            points=list(g.positions),
            values=[points[i] for i in g.positions],
            reasons=list(g.reasons),
        )
        for g in duplicates(points, params)
    ]
