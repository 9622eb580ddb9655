"""The relative differences table: each configuration against its base-case twin."""

from __future__ import annotations

from typing import Any

from sqlalchemy.orm import Session

from backend.domain.labels import format_level, parameter_label
from backend.figures.data import load_relative
from backend.figures.labels import metric_title, printed_unit
from backend.models import Experiment
from backend.tables.registry import ExperimentInfo, TableQuery, factor_columns, register
from backend.tables.table import Column, Table


def _load_differences(session: Session, experiment_id: int, q: TableQuery) -> Any:
    exp = session.get(Experiment, experiment_id)
    assert exp is not None
    factor = q.factor or next(iter(exp.factors), "")
    base = q.base if q.base is not None else format_level((exp.factors.get(factor) or [""])[0])
    return load_relative(session, experiment_id, q, factor, base)


@register("differences", "Relative differences", _load_differences)
def differences(data: Any, info: ExperimentInfo, q: TableQuery) -> Table:
    """Each configuration against its base-case twin: 100 (y - x) / x."""
    unit = printed_unit(data.unit)
    factors = list(info.factors)
    rows = [
        [
            *(format_level(r.values.get(f)) for f in factors),
            r.base_value,
            r.value,
            r.difference_percent,
        ]
        for r in data.data
    ]
    return Table(
        [
            *factor_columns(info),
            Column("Base", unit, 1),
            Column("Value", unit, 1),
            Column("Difference", "%", 1),
        ],
        rows,
        f"Relative difference of {metric_title(data.metric)} in experiment {info.name} "
        f"against {parameter_label(data.factor)} = {data.base}, {info.varied()}.",
        info.label(f"differences-{data.factor}"),
    )
