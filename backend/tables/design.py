"""The experiment's configuration table: every parameter, its value or levels, the run plan."""

from __future__ import annotations

from typing import Any

from sqlalchemy.orm import Session

from backend.domain.labels import format_level, parameter_title
from backend.domain.parameters import PARAMETERS
from backend.tables.registry import ExperimentInfo, TableQuery, register
from backend.tables.table import Column, Table


def _no_data(session: Session, experiment_id: int, q: TableQuery) -> None:
    return None


@register("configuration", "Experiment configuration", _no_data)
def configuration(_: None, info: ExperimentInfo, q: TableQuery) -> Table:
    """Every parameter with its value, or its levels when varied; then the run plan."""
    rows: list[list[Any]] = []
    for name, param in PARAMETERS.items():
        if name in info.factors:
            value = ", ".join(format_level(v) for v in info.factors[name])
        else:
            value = format_level(info.fixed.get(name, param.default))
        rows.append([parameter_title(name), value])
    rows += [
        ["Repetitions", str(info.repetitions)],
        [
            "Run time (s)",
            f"{info.run_time_s} (warm-up {info.warmup_s}, cool-down {info.cooldown_s})",
        ],
    ]
    return Table(
        [Column("Parameter"), Column("Value")],
        rows,
        f"Configuration of experiment {info.name}, {info.varied()}.",
        info.label("configuration"),
    )
