"""The tables of an experiment: configuration, summary, factorial, differences and the MVA
model against measurement.

Each is a data function (the same numbers the pages show) and a build function to a
`Table`; captions name the experiment and its varied factors, labels derive from its name.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from pydantic import Field
from sqlalchemy.orm import Session

from backend.api.routes.analysis.experiments import read_relative_differences
from backend.domain.parameters import CLIENT_COUNT_PARAMETERS, PARAMETERS
from backend.figures.data import call_endpoint, load_factorial, load_results, window_of
from backend.figures.factorial import design_text, effect_label
from backend.figures.labels import (
    MICROSECONDS,
    OPS_PER_S,
    US_PER_S,
    format_level,
    levels_label,
    metric_title,
    parameter_label,
    parameter_title,
    printed_unit,
)
from backend.figures.models import NetworkFit, load_network_fit, load_queue_models
from backend.figures.params import FigureQuery, Selection, ServiceRate
from backend.models import Experiment
from backend.results.metrics import METRIC_UNITS
from backend.tables.table import Column, Table, latex_label


class TableQuery(Selection):
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


def _factor_columns(info: ExperimentInfo) -> list[Column]:
    return [Column(parameter_title(n)) for n in info.factors]


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


@register("summary", "Summary", load_results)
def summary(data: Any, info: ExperimentInfo, q: TableQuery) -> Table:
    """Mean and standard deviation of throughput and response time per configuration."""
    factors = list(info.factors)
    tp, rt = "Throughput", "Response time"
    tp_unit, rt_unit = (
        printed_unit(METRIC_UNITS[m]) for m in ("throughput_per_s", "response_time_us")
    )
    columns = [
        *_factor_columns(info),
        Column("Reps", decimals=0),
        Column("mean", tp_unit, 0, tp),
        Column("std", tp_unit, 0, tp),
        Column("mean", rt_unit, 1, rt),
        Column("std", rt_unit, 1, rt),
    ]
    rows = [
        [
            *(format_level(r.values.get(f)) for f in factors),
            r.repetitions,
            r.throughput_mean,
            r.throughput_std,
            r.response_time_us_mean,
            r.response_time_us_std,
        ]
        for r in data.data
    ]
    window = (
        f"seconds {q.window_start_s} to {q.window_end_s} of each run"
        if q.window_start_s is not None
        else "each run's stable window"
    )
    return Table(
        columns,
        rows,
        f"Results of experiment {info.name} ({q.source} side, {q.request_type.value} "
        f"requests, {window}), {info.varied()}: mean and standard deviation over repetitions.",
        info.label("summary"),
    )


@register("factorial", "Factorial design", load_factorial)
def factorial(data: Any, info: ExperimentInfo, q: TableQuery) -> Table:
    """Effects, their share of variation and confidence intervals (2^k r design)."""
    unit = None if data.multiplicative else printed_unit(METRIC_UNITS[q.metric])
    level = f"{100 * data.confidence:g}% CI" if data.confidence else "CI"
    rows: list[list[Any]] = [
        [
            effect_label(e.factors) if e.factors else "Mean",
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
        f"{design_text(data)}), {info.varied()}.",
        info.label("factorial"),
    )


def _load_differences(session: Session, experiment_id: int, q: TableQuery) -> Any:
    exp = session.get(Experiment, experiment_id)
    assert exp is not None
    factor = q.factor or next(iter(exp.factors), "")
    base = q.base if q.base is not None else format_level((exp.factors.get(factor) or [""])[0])
    return call_endpoint(
        read_relative_differences,
        session=session,
        experiment=exp,
        window=window_of(session, experiment_id, q),
        factor=factor,
        base=base,
        metric=q.metric,
        source=q.source,
        request_type=q.request_type,
    )


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
            *_factor_columns(info),
            Column("Base", unit, 1),
            Column("Value", unit, 1),
            Column("Difference", "%", 1),
        ],
        rows,
        f"Relative difference of {metric_title(data.metric)} in experiment {info.name} "
        f"against {parameter_label(data.factor)} = {data.base}, {info.varied()}.",
        info.label(f"differences-{data.factor}"),
    )


def _model_query(q: TableQuery) -> FigureQuery:
    """The Models tab's figure query of a table query (its selection, group, service rate)."""
    selection = q.model_dump(include=set(Selection.model_fields))
    return FigureQuery(**selection, group=q.group, service_rate=q.service_rate)


def _load_network_fit(session: Session, experiment_id: int, q: TableQuery) -> NetworkFit:
    return load_network_fit(session, experiment_id, _model_query(q))


def _load_queue_models(session: Session, experiment_id: int, q: TableQuery) -> Any:
    return load_queue_models(session, experiment_id, _model_query(q))


def _us(seconds: float | None) -> float | None:
    return None if seconds is None else seconds * US_PER_S


@register("model-comparison", "MVA model against measurement", _load_network_fit)
def model_comparison(data: NetworkFit, info: ExperimentInfo, q: TableQuery) -> Table:
    """Per client count: measured throughput and response time beside the MVA's (the Models
    tab's model-throughput and model-response-time figures as numbers)."""
    tp, rt = "Throughput", "Response time"
    rows: list[list[Any]] = [
        [
            r.clients,
            r.measured_throughput_per_s,
            r.model_throughput_per_s,
            r.throughput_deviation_percent,
            _us(r.measured_response_time_s),
            _us(r.model_response_time_s),
            r.response_deviation_percent,
        ]
        for r in data.solved.rows
    ]
    return Table(
        [
            Column("Clients N", decimals=0),
            Column("measured", OPS_PER_S, 0, tp),
            Column("MVA", OPS_PER_S, 0, tp),
            Column("error", "%", 1, tp),
            Column("measured", MICROSECONDS, 1, rt),
            Column("MVA", MICROSECONDS, 1, rt),
            Column("error", "%", 1, rt),
        ],
        rows,
        f"Exact MVA of the network with inputs estimated from the data against the measurement "
        f"of experiment {info.name} ({q.request_type.value} requests), "
        f"{levels_label(data.group.group)}; bottleneck: {data.solved.model.bottleneck}.",
        info.label(f"model-comparison-{q.group}"),
    )


@register("queue-models", "M/M/1 and M/M/m against measurement", _load_queue_models)
def queue_models(data: Any, info: ExperimentInfo, q: TableQuery) -> Table:
    """Per configuration of the group: waiting and response time measured beside M/M/1's and
    M/M/m's (the Models tab's queue-models table)."""
    w, r = "Waiting time E[w]", "Response time E[r]"

    def predicted(row: Any, model: str, field: str) -> float | None:
        p = getattr(row, model)
        return None if p is None else _us(getattr(p, field).predicted)

    def measured(row: Any, field: str) -> float | None:
        p = row.mmm or row.mm1
        return None if p is None else _us(getattr(p, field).measured)

    rows: list[list[Any]] = [
        [
            row.clients,
            row.arrival_rate_per_s,
            _us(row.service_time_s),
            *(
                cell
                for field in ("waiting_time_s", "response_time_s")
                for cell in (
                    measured(row, field),
                    predicted(row, "mm1", field),
                    predicted(row, "mmm", field),
                )
            ),
        ]
        for row in data
    ]
    return Table(
        [
            Column("Clients N", decimals=0),
            Column("Arrival rate", OPS_PER_S, 0),
            Column("Service time", MICROSECONDS, 1),
            Column("measured", MICROSECONDS, 1, w),
            Column("M/M/1", MICROSECONDS, 1, w),
            Column("M/M/m", MICROSECONDS, 1, w),
            Column("measured", MICROSECONDS, 1, r),
            Column("M/M/1", MICROSECONDS, 1, r),
            Column("M/M/m", MICROSECONDS, 1, r),
        ],
        rows,
        f"M/M/1 and M/M/m against the measurement of experiment {info.name} "
        f"({q.request_type.value} requests, service rate from the "
        f"{'worker time' if q.service_rate == 'worker_time' else 'largest throughput'}), "
        f"{levels_label(_group_values(data[0].values))}.",
        info.label(f"queue-models-{q.group}"),
    )


def _group_values(values: dict[str, Any]) -> dict[str, Any]:
    """A configuration's values besides those that set its number of clients."""
    return {k: v for k, v in values.items() if k not in CLIENT_COUNT_PARAMETERS}
