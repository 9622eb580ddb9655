"""The model tables: the MVA network and M/M/1, M/M/m against measurement (the Models tab)."""

from __future__ import annotations

from typing import Any

from sqlalchemy.orm import Session

from backend.domain.labels import levels_label
from backend.domain.parameters import CLIENT_COUNT_PARAMETERS
from backend.figures.data import selected
from backend.figures.labels import MICROSECONDS, OPS_PER_S, US_PER_S
from backend.figures.models import NetworkFit, load_network_fit, load_queue_models
from backend.figures.params import FigureQuery, ResultsQuery
from backend.modelfit import service
from backend.tables.fit_cells import fit_cell, fit_notes
from backend.tables.registry import ExperimentInfo, TableQuery, register
from backend.tables.table import Column, Table


def _model_query(q: TableQuery) -> FigureQuery:
    """The Models tab's figure query of a table query (its selection, group, service rate)."""
    selection = q.model_dump(include=set(ResultsQuery.model_fields))
    return FigureQuery(**selection, group=q.group, service_rate=q.service_rate)


def _load_network_fit(session: Session, experiment_id: int, q: TableQuery) -> NetworkFit:
    return load_network_fit(session, experiment_id, _model_query(q))


def _load_queue_models(session: Session, experiment_id: int, q: TableQuery) -> Any:
    return load_queue_models(session, experiment_id, _model_query(q))


def _load_bottlenecks(session: Session, experiment_id: int, q: TableQuery) -> Any:
    selection = selected(session, experiment_id, _model_query(q))
    return service.bottlenecks_public(session=session, selection=selection)


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
            r.bound_throughput_per_s,
            r.throughput_deviation_percent,
            _us(r.measured_response_time_s),
            _us(r.model_response_time_s),
            _us(r.bound_response_time_s),
            r.response_deviation_percent,
            fit_cell([r.throughput_fit, r.response_time_fit]),
        ]
        for r in data.solved.rows
    ]
    return Table(
        [
            Column("Clients N", decimals=0),
            Column("measured", OPS_PER_S, 0, tp),
            Column("MVA", OPS_PER_S, 0, tp),
            Column("bound", OPS_PER_S, 0, tp),
            Column("error", "%", 1, tp),
            Column("measured", MICROSECONDS, 1, rt),
            Column("MVA", MICROSECONDS, 1, rt),
            Column("bound", MICROSECONDS, 1, rt),
            Column("error", "%", 1, rt),
            Column("Fit"),
        ],
        rows,
        f"Exact MVA of the network with inputs estimated from the data against the measurement "
        f"of experiment {info.name} ({q.request_type.value} requests), "
        f"{levels_label(data.group.group)}; bottleneck: {data.solved.model.bottleneck}.",
        info.label(f"model-comparison-{q.group}"),
        notes=fit_notes(
            f for r in data.solved.rows for f in (r.throughput_fit, r.response_time_fit)
        ),
    )


@register("bottlenecks", "Bottleneck per group of configurations", _load_bottlenecks)
def bottlenecks(data: Any, info: ExperimentInfo, q: TableQuery) -> Table:
    """Per group: each model's bottleneck with its basis, and the group's one statement."""
    rows: list[list[Any]] = [
        [levels_label(g.group), m.model, m.resource, m.basis, m.detail]
        for g in data.data
        for m in g.models
    ]
    return Table(
        [
            Column("Configurations"),
            Column("Model"),
            Column("Bottleneck"),
            Column("Basis"),
            Column("Why"),
        ],
        rows,
        f"Bottleneck of each group of configurations of experiment {info.name} "
        f"({q.request_type.value} requests) by every model that names one, with what each "
        "rests on.",
        info.label("bottlenecks"),
        notes=[f"{levels_label(g.group)}: {g.statement}." for g in data.data],
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
        notes=fit_notes(
            f
            for row in data
            for p in (row.mm1, row.mmm)
            if p is not None
            for f in (p.capacity, p.waiting_time_s.fit, p.response_time_s.fit)
        ),
    )


def _group_values(values: dict[str, Any]) -> dict[str, Any]:
    """A configuration's values besides those that set its number of clients."""
    return {k: v for k, v in values.items() if k not in CLIENT_COUNT_PARAMETERS}
