"""Models over measurements (the Models tab): the MVA network against N, M/M/1 and M/M/m.

Data come from the model service the Models tab's routes call (backend.modelfit.service):
the network inputs estimated from the experiment (one group of configurations differing only
in clients), solved by the network model with bounds; the queue models per configuration.
"""

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import plotly.graph_objects as go
from pydantic import ValidationError
from sqlalchemy.orm import Session

from backend.analysis.errors import AnalysisError
from backend.domain.labels import levels_label
from backend.domain.parameters import CLIENT_COUNT_PARAMETERS
from backend.figures.data import selected
from backend.figures.fit_marks import mark_flagged
from backend.figures.labels import MICROSECONDS, OPS_PER_S, US_PER_S, with_unit
from backend.figures.params import FigureQuery, QueueQuantity
from backend.figures.registry import register, set_caption
from backend.modelfit import service
from backend.modelfit.fit import group_key
from backend.schemas import analysis as s


@dataclass(frozen=True)
class NetworkFit:
    """One group's measured points, the MVA solved from its estimated inputs, and the MVA of
    the inputs with the what-if edits (None without edits)."""

    group: s.NetworkGroupPublic
    solved: s.NetworkModelPublic
    what_if: s.NetworkModelPublic | None = None


def _pick(groups: list[Any], index: int) -> Any:
    if not groups:
        raise AnalysisError("group", "no group of configurations with client measurements")
    if index >= len(groups):
        raise AnalysisError("group", f"this experiment has {len(groups)} group(s): 0..")
    return groups[index]


def load_network_fit(session: Session, experiment_id: int, q: FigureQuery) -> NetworkFit:
    """The group's inputs from the data, solved over its client counts with bounds."""
    inputs = service.network_inputs_public(
        session=session,
        selection=selected(session, experiment_id, q),
        server_utilization=q.server_utilization,
    )
    group: s.NetworkGroupPublic = _pick(inputs.data, q.group)

    def solve(system: s.SystemConfigIn) -> s.NetworkModelPublic:
        body = s.NetworkModelRequest(
            system=system,
            clients=[p.clients for p in group.points],
            measured_throughput_per_s=[p.throughput_per_s for p in group.points],
            measured_response_time_s=[p.response_time_s for p in group.points],
            include_bounds=True,
        )
        return service.network_model(body)

    overrides = q.what_if_overrides()
    what_if = None
    if overrides:
        unknown = sorted(set(overrides) - set(s.SystemConfigIn.model_fields))
        if unknown:
            raise AnalysisError("what_if", f"not a network input: {', '.join(unknown)}")
        try:
            edited = s.SystemConfigIn.model_validate({**group.system.model_dump(), **overrides})
        except ValidationError as err:
            first = err.errors()[0]
            raise AnalysisError("what_if", f"{first['loc'][0]}: {first['msg']}") from err
        if edited != group.system:
            what_if = solve(edited)
    return NetworkFit(group, solve(group.system), what_if)


def _fit_figure(fit: NetworkFit, throughput: bool) -> go.Figure:
    """Measured mean ± std, the MVA curve and the asymptotic bound against N."""
    pts, model = fit.group.points, fit.solved.model
    scale = 1.0 if throughput else US_PER_S

    def measured(p: s.MeasuredPointPublic) -> tuple[float | None, float]:
        if throughput:
            return p.throughput_per_s, p.throughput_std_per_s or 0.0
        if p.response_time_s is None:
            return None, 0.0
        return p.response_time_s * scale, (p.response_time_std_s or 0.0) * scale

    shown = [(p.clients, *measured(p)) for p in pts]
    fig = go.Figure(
        go.Scatter(
            x=[n for n, y, _ in shown if y is not None],
            y=[y for _, y, _ in shown if y is not None],
            error_y={
                "type": "data",
                "array": [e for _, y, e in shown if y is not None],
                "visible": True,
            },
            mode="markers",
            name="measured (mean ± std)",
        )
    )

    measured_n = {p.clients for p in pts}

    def line(xs: Sequence[int], ys: Sequence[float], name: str, dash: str) -> None:
        # Markers at the measured N: a model of one N still draws its point.
        fig.add_trace(
            go.Scatter(
                x=list(xs),
                y=[v * scale for v in ys],
                mode="lines+markers",
                marker={"size": [8 if n in measured_n else 0 for n in xs]},
                name=name,
                line={"dash": dash},
            )
        )

    # Solid: the model of the data; the bound is dotted, a what-if dashed.
    curve = model.throughput_per_s if throughput else model.response_time_s
    line(model.populations, curve, "MVA, inputs from the data", "solid")
    b = model.bounds
    if b is not None:
        bound = b.aba_throughput_upper if throughput else b.aba_response_lower_s
        line(b.populations, bound, f"asymptotic bound (bottleneck: {b.bottleneck})", "dot")
    if fit.what_if is not None:
        edited = fit.what_if.model
        curve = edited.throughput_per_s if throughput else edited.response_time_s
        line(edited.populations, curve, "MVA, what-if", "dash")
    fits = [r.throughput_fit if throughput else r.response_time_fit for r in fit.solved.rows]
    n_of_rows = [float(r.clients) for r in fit.solved.rows]
    warned = mark_flagged(fig, 0, list(zip(n_of_rows, fits, strict=True)), scale)
    y_title = with_unit(
        *(("Throughput", OPS_PER_S) if throughput else ("Response time", MICROSECONDS))
    )
    fig.update_layout(
        xaxis={"title": {"text": "Virtual clients N"}, "rangemode": "tozero"},
        yaxis={"title": {"text": y_title}, "rangemode": "tozero"},
    )
    what = "throughput" if throughput else "response time"
    group = levels_label(fit.group.group)
    dashed = (
        f"; dashed: the what-if inputs (bottleneck: {fit.what_if.model.bottleneck})"
        if fit.what_if is not None
        else ""
    )
    return set_caption(
        fig,
        f"Measured {what} against the exact MVA of the closed network (clients, network "
        f"delay, net thread, worker pool, memcached servers) with inputs estimated from the "
        f"measurements, {group}; bottleneck: {model.bottleneck}{dashed}.{warned}",
    )


@register("model-throughput", "Throughput: MVA model over measurement", load_network_fit)
def model_throughput(data: NetworkFit, q: FigureQuery) -> go.Figure:
    """Measured X against N with the MVA curve and the asymptotic upper bound."""
    return _fit_figure(data, throughput=True)


@register("model-response-time", "Response time: MVA model over measurement", load_network_fit)
def model_response_time(data: NetworkFit, q: FigureQuery) -> go.Figure:
    """Measured R against N with the MVA curve and the asymptotic lower bound."""
    return _fit_figure(data, throughput=False)


def load_queue_models(
    session: Session, experiment_id: int, q: FigureQuery
) -> list[s.QueueModelRowPublic]:
    """M/M/1 and M/M/m of the configurations of one group (as the network figures')."""
    models = service.queue_models_public(
        session=session,
        selection=selected(session, experiment_id, q),
        service_rate=q.service_rate,
    )
    groups: dict[Any, list[s.QueueModelRowPublic]] = {}
    for row in models.data:
        groups.setdefault(group_key(row.values), []).append(row)
    rows: list[s.QueueModelRowPublic] = _pick(list(groups.values()), q.group)
    return sorted(rows, key=lambda r: r.clients)


# Quantity -> (field of a prediction, axis title, scale from the API's unit).
_QUANTITIES: dict[QueueQuantity, tuple[str, str, float]] = {
    "response_time": ("response_time_s", with_unit("Response time E[r]", MICROSECONDS), US_PER_S),
    "waiting_time": ("waiting_time_s", with_unit("Waiting time E[w]", MICROSECONDS), US_PER_S),
    "queue_length": ("queue_length", "Queue length E[nq] (requests)", 1.0),
}


@register("queue-models", "M/M/1 and M/M/m against measurement", load_queue_models)
def queue_models(rows: list[s.QueueModelRowPublic], q: FigureQuery) -> go.Figure:
    """One quantity against N: measured, M/M/1 (one server of rate m·μ) and M/M/m."""
    field, title, scale = _QUANTITIES[q.quantity]
    n = [r.clients for r in rows]

    def values(pick: Any) -> list[float | None]:
        out: list[float | None] = []
        for r in rows:
            v = pick(r)
            out.append(None if v is None else v * scale)
        return out

    def compared(r: s.QueueModelRowPublic, model: str) -> Any:
        pred = getattr(r, model)
        return getattr(pred, field) if pred is not None else None

    def measured(r: s.QueueModelRowPublic) -> float | None:
        c = compared(r, "mmm") or compared(r, "mm1")
        return c.measured if c is not None else None

    def predicted(model: str) -> Any:
        return lambda r: c.predicted if (c := compared(r, model)) is not None else None

    fig = go.Figure(
        [
            go.Scatter(x=n, y=values(measured), mode="markers", name="measured"),
            go.Scatter(x=n, y=values(predicted("mm1")), mode="lines+markers", name="M/M/1"),
            go.Scatter(x=n, y=values(predicted("mmm")), mode="lines+markers", name="M/M/m"),
        ]
    )
    flags = [
        (float(r.clients), c.fit)
        for model in ("mm1", "mmm")
        for r in rows
        if (c := compared(r, model)) is not None
    ]
    warned = mark_flagged(fig, 0, flags, scale)
    fig.update_layout(
        xaxis={"title": {"text": "Virtual clients N"}, "rangemode": "tozero"},
        yaxis={"title": {"text": title}, "rangemode": "tozero"},
    )
    group = levels_label(
        {k: v for k, v in rows[0].values.items() if k not in CLIENT_COUNT_PARAMETERS}
    )
    return set_caption(
        fig,
        f"{title.split(' (')[0]} of the middleware layer as M/M/1 and M/M/m (m = workers × "
        f"middlewares, arrival rate = measured throughput) against the measurement, "
        f"{group}.{warned}",
    )
