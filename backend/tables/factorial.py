"""The factorial table: effects of the 2^k r (or 2^(k-p) r) design with their intervals."""

from __future__ import annotations

from typing import Any

from backend.domain.metrics import METRIC_UNITS
from backend.figures.data import load_factorial
from backend.figures.factorial import design_text, no_effect_text
from backend.figures.labels import metric_title, printed_unit
from backend.tables.registry import ExperimentInfo, TableQuery, register
from backend.tables.table import Column, Table


@register("factorial", "Factorial design", load_factorial)
def factorial(data: Any, info: ExperimentInfo, q: TableQuery) -> Table:
    """Effects, their share of variation and confidence intervals (2^k r design)."""
    unit = None if data.multiplicative else printed_unit(METRIC_UNITS[q.metric])
    level = f"{100 * data.confidence:g}% CI" if data.confidence else "CI"
    rows: list[list[Any]] = [
        [
            e.label,
            e.value,
            e.variation_percent if e.factors else None,
            e.ci_low,
            e.ci_high,
            e.significant if e.factors else None,
        ]
        for e in data.effects
    ]
    rows.append(["Error", None, data.error_percent, None, None, None])
    model = "multiplicative (log10 y)" if data.multiplicative else "additive"
    return Table(
        [
            Column("Effect"),
            Column("q", unit, 2),
            Column("Variation", "%", 1),
            Column("low", unit, 2, level),
            Column("high", unit, 2, level),
            Column("Significant"),
        ],
        rows,
        f"Effects on {metric_title(q.metric)} in experiment {info.name} ({model} model of a "
        f"{design_text(data)}), {info.varied()}.{no_effect_text(data)}",
        info.label("factorial"),
    )
