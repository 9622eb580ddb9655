"""The tables of the product: a name, a data function and a build function each.

Adding a table is one build function (data -> `Table`) and one `register` call in its
family's module; the CSV/LaTeX endpoints and the report bundle pick it up. Captions name the
experiment and its varied factors, labels derive from its name."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from pydantic import Field
from sqlalchemy.orm import Session

from backend.domain.labels import format_level, parameter_label, parameter_title
from backend.figures.params import ResultsQuery, ServiceRate
from backend.models import Experiment
from backend.tables.table import Column, Table, latex_label


class TableQuery(ResultsQuery):
    """The page's selection plus, for differences, the factor and its base level, and for the
    model tables, the group of configurations and the service rate (as on the Models tab)."""

    factor: str | None = Field(default=None, description="differences: default the first factor")
    base: str | None = Field(default=None, description="differences: default its first level")
    group: int = Field(
        default=0,
        ge=0,
        description="model tables: the group of configurations differing only in clients "
        "(index, as on the Models tab)",
    )
    service_rate: ServiceRate = Field(
        default="worker_time",
        description="queue models: the service rate from the worker time or the group's "
        "largest throughput",
    )


@dataclass(frozen=True)
class ExperimentInfo:
    """What captions and the configuration table need to know about an experiment."""

    id: int
    name: str
    factors: dict[str, list[Any]]
    fixed: dict[str, Any]
    repetitions: int
    run_time_s: int
    warmup_s: int
    cooldown_s: int

    @classmethod
    def of(cls, exp: Experiment) -> ExperimentInfo:
        return cls(
            exp.id,
            exp.name,
            dict(exp.factors),
            dict(exp.fixed),
            exp.repetitions,
            exp.run_time_s,
            exp.warmup_s,
            exp.cooldown_s,
        )

    def varied(self) -> str:
        """ "clients per thread (1, 4) and worker threads (8, 16)"."""
        parts = [
            f"{parameter_label(n)} ({', '.join(format_level(v) for v in levels)})"
            for n, levels in self.factors.items()
        ]
        if not parts:
            return "no factor varied"
        return "varying " + (" and ".join(parts) if len(parts) < 3 else ", ".join(parts))

    def label(self, kind: str) -> str:
        return latex_label("tab", self.name, kind)


Loader = Callable[[Session, int, TableQuery], Any]
Builder = Callable[[Any, ExperimentInfo, TableQuery], Table]


@dataclass(frozen=True)
class TableSpec:
    name: str
    title: str
    load: Loader
    build: Builder

    def make(self, session: Session, exp: Experiment, q: TableQuery) -> Table:
        return self.build(self.load(session, exp.id, q), ExperimentInfo.of(exp), q)


TABLES: dict[str, TableSpec] = {}


def register(name: str, title: str, load: Loader) -> Callable[[Builder], Builder]:
    """Decorator registering a table's build function (order of registration = bundle order)."""

    def wrap(build: Builder) -> Builder:
        if name in TABLES:
            raise ValueError(f"table {name!r} registered twice")
        TABLES[name] = TableSpec(name, title, load, build)
        return build

    return wrap


def factor_columns(info: ExperimentInfo) -> list[Column]:
    return [Column(parameter_title(n)) for n in info.factors]
