"""Which figures and tables an experiment's design can have: the default report holds only
those (a 3 x 2 grid has no 2^k factorial, a design without a middleware no queue models)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from backend.analysis.factorial import is_two_level
from backend.domain.parameters import PARAMETERS
from backend.models import Experiment


@dataclass(frozen=True)
class DesignFacts:
    """What the items' needs are decided on: the factors and their levels, fixed values."""

    factors: dict[str, list[Any]]
    fixed: dict[str, Any]

    @classmethod
    def of(cls, exp: Experiment) -> DesignFacts:
        return cls(dict(exp.factors), dict(exp.fixed))

    def values_of(self, name: str) -> list[Any]:
        """Every value a parameter takes in the grid (its levels, or its one value)."""
        if name in self.factors:
            return list(self.factors[name])
        return [self.fixed.get(name, PARAMETERS[name].default)]

    def varied(self) -> bool:
        """At least one factor with two levels or more: something to draw against."""
        return any(len(levels) > 1 for levels in self.factors.values())

    def two_level(self) -> bool:
        """A 2^k design (backend.analysis.factorial.is_two_level)."""
        return is_two_level(self.factors)

    def middleware(self) -> bool:
        """A middleware in every configuration (its times, queue and worker pool exist)."""
        return all(int(v) >= 1 for v in self.values_of("middlewares"))


Need = Callable[[DesignFacts], bool]


def _always(_: DesignFacts) -> bool:
    return True


def _varied_with_middleware(d: DesignFacts) -> bool:
    return d.varied() and d.middleware()


_FACTORIAL = (
    "factorial-effects",
    "allocation-of-variation",
    "residuals",
    "qq",
    "half-normal",
    "main-effects",
    "interactions",
)

# Items not named here need nothing beyond measured runs.
FIGURE_NEEDS: dict[str, Need] = {
    "throughput": DesignFacts.varied,
    "response-time": DesignFacts.varied,
    "percentiles": DesignFacts.varied,
    "breakdown": DesignFacts.middleware,
    **{name: DesignFacts.two_level for name in _FACTORIAL},
    "model-throughput": _varied_with_middleware,
    "model-response-time": _varied_with_middleware,
    "queue-models": _varied_with_middleware,
    "compare-groups": DesignFacts.varied,
    "compare-parcoords": DesignFacts.varied,
}
TABLE_NEEDS: dict[str, Need] = {
    "differences": DesignFacts.varied,
    "factorial": DesignFacts.two_level,
    "model-comparison": _varied_with_middleware,
    "bottlenecks": _varied_with_middleware,
    "queue-models": _varied_with_middleware,
}


def supported(kind: str, name: str, design: DesignFacts) -> bool:
    """Whether the design can have this figure or table at all."""
    needs = FIGURE_NEEDS if kind == "figure" else TABLE_NEEDS
    return needs.get(name, _always)(design)
