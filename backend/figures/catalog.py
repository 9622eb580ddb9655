"""Every figure of the product, registered by importing its module (order = bundle order)."""

from backend.figures import (
    analyses,
    compare,
    distributions,
    factorial,
    live,
    models,
    monitoring,
    parcoords,
    results,
)
from backend.figures.registry import FIGURES, LIVE_FIGURES, FigureSpec, figure_spec

# Imported for their registrations.
__all__ = [
    "FIGURES",
    "LIVE_FIGURES",
    "ORDER",
    "FigureSpec",
    "figure_spec",
    "figures_in_order",
    "analyses",
    "compare",
    "distributions",
    "factorial",
    "live",
    "models",
    "parcoords",
    "monitoring",
    "results",
]

# Bundle and listing order: the results page's order, then the analyses.
ORDER = (
    "throughput",
    "response-time",
    "percentiles",
    "histogram",
    "time-series",
    "breakdown",
    "interactive-law",
    "factorial-effects",
    "allocation-of-variation",
    "residuals",
    "qq",
    "half-normal",
    "main-effects",
    "interactions",
    "model-throughput",
    "model-response-time",
    "queue-models",
    "compare-groups",
    "compare-parcoords",
    "resources",
    "resource-utilization",
)


def figures_in_order() -> list[FigureSpec]:
    """Every registered figure, known ones in ORDER, later registrations after them."""
    rank = {name: i for i, name in enumerate(ORDER)}
    return sorted(FIGURES.values(), key=lambda f: rank.get(f.name, len(ORDER)))
