"""Parallel coordinates of the compare page: every configuration as one line over an axis per
experiment, varying parameter and metric, coloured by the chosen metric.

The axes are `backend.compare.brush`'s, the ones brushing is resolved on, so a brushed
interval means the same on the screen, in the API and in an exported file. Plotly draws the
lines with WebGL: in a PDF or SVG the text and axes are vector and the lines one image.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import plotly.graph_objects as go
from sqlalchemy.orm import Session

from backend.analysis.errors import AnalysisError
from backend.api.routes.compare import compare_configurations
from backend.compare.brush import EXPERIMENT_AXIS, Axis, AxisRow, Interval, axis_of, measured
from backend.compare.source import OVERVIEW_METRICS
from backend.crud import compare as crud
from backend.figures.compare import as_query_error
from backend.figures.labels import format_level, metric_title, parameter_title, with_unit
from backend.figures.params import FigureQuery
from backend.figures.registry import register, set_caption
from backend.results.metrics import METRIC_UNITS, MetricName
from backend.schemas.compare import ConfigurationsRequest, ConfigurationTablePublic

MAX_TICKS = 12  # a numeric axis is ticked at its levels when it has at most this many
NAME_CHARS = 18  # experiment names longer than this are shortened on their axis


@dataclass(frozen=True)
class ParcoordsData:
    """The configuration table of the selection, the experiments' names, the colouring metric
    and the brush to draw (constraint ranges)."""

    table: ConfigurationTablePublic
    names: dict[int, str]
    order: list[int]
    colour: MetricName
    brush: Mapping[str, Sequence[Interval]]


def parcoords_metrics(metric: MetricName) -> list[MetricName]:
    """The metric axes: the overview metrics and the colouring one, each once."""
    return list(dict.fromkeys([*OVERVIEW_METRICS, metric]))


def load_parcoords(session: Session, experiment_id: int, q: FigureQuery) -> ParcoordsData:
    """This experiment and the compared ones, every configuration (GET: no brush)."""
    ids = [experiment_id, *q.compare]
    body = ConfigurationsRequest(
        experiment_ids=ids,
        source=q.source,
        request_type=q.request_type,
        window_start_s=q.window_start_s,
        window_end_s=q.window_end_s,
        metrics=parcoords_metrics(q.metric),
    )
    with as_query_error():
        table = compare_configurations(session=session, body=body)
    return ParcoordsData(
        table, crud.read_experiment_names(session=session, ids=ids), ids, q.metric, {}
    )


def _short(name: str) -> str:
    return name if len(name) <= NAME_CHARS else f"{name[:8]}…{name[-8:]}"


def _title(key: str) -> str:
    if key == EXPERIMENT_AXIS:
        return "Experiment"
    if key in METRIC_UNITS:
        what = metric_title(key)
        return with_unit(what[:1].upper() + what[1:], METRIC_UNITS[key])
    return parameter_title(key)


def _dimension(axis: Axis, rows: Sequence[int], names: dict[int, str]) -> dict[str, Any]:
    dim: dict[str, Any] = {"label": _title(axis.key), "values": [axis.values[i] for i in rows]}
    if axis.levels is not None:
        text = [
            _short(names[v]) if axis.key == EXPERIMENT_AXIS else format_level(v)
            for v in axis.levels
        ]
        dim |= {
            "tickvals": list(range(len(text))),
            "ticktext": text,
            "range": [0, max(len(text) - 1, 1)],
        }
    elif axis.key not in METRIC_UNITS:
        levels = sorted(set(dim["values"]))
        if len(levels) <= MAX_TICKS:
            dim |= {"tickvals": levels, "ticktext": [format_level(v) for v in levels]}
    return dim


@register("compare-parcoords", "Parallel coordinates (compare)", load_parcoords, vector=False)
def parcoords_figure(data: ParcoordsData, q: object) -> go.Figure:
    """One line per measured configuration; brushed intervals drawn as constraint ranges."""
    table = data.table
    present = [e for e in data.order if any(r.experiment_id == e for r in table.data)]
    keys = [EXPERIMENT_AXIS] if len(present) > 1 else []
    keys += [*table.parameters, *table.metrics]
    if data.colour not in table.metrics:
        raise AnalysisError("metric", "the colouring metric must be one of the table's metrics")
    rows = [AxisRow(r.experiment_id, r.configuration_id, r.values, r.metrics) for r in table.data]
    metrics: set[str] = set(table.metrics)
    axes = [axis_of(k, rows, data.order, metrics) for k in keys]
    by_key = {a.key: a for a in axes}
    # A line needs a value on every axis: configurations without results are not drawn.
    shown = [
        i for i in range(len(rows)) if all(measured(by_key[m].values[i]) for m in table.metrics)
    ]
    dims = [_dimension(a, shown, data.names) for a in axes]
    for dim, a in zip(dims, axes, strict=True):
        r = data.brush.get(a.key)
        if r:
            dim["constraintrange"] = list(r[0]) if len(r) == 1 else [list(x) for x in r]
    colour = by_key[data.colour]
    fig = go.Figure(
        go.Parcoords(
            line={
                "color": [colour.values[i] for i in shown],
                "colorscale": "Viridis",
                "colorbar": {"title": {"text": _title(data.colour)}},
            },
            dimensions=dims,
        )
    )
    # The first axis' tick labels stand left of it: room for the longest (experiment names);
    # the first axis' title is centred on it; the last's, slanted in print, runs right of it;
    # the range labels under the axes need the bottom margin.
    ticks = max((len(t) for t in dims[0].get("ticktext", [])), default=4) if dims else 4
    first = len(dims[0]["label"]) if dims else 4
    last = len(dims[-1]["label"]) if dims else 4
    left = max(20 + 8 * ticks, 4 * first)  # about 7.5 px per character of 12 px text
    fig.update_layout(margin={"l": left, "r": 10 + 5 * last, "t": 70, "b": 30})
    names = ", ".join(data.names[e] for e in present) or "the selection"
    return set_caption(
        fig,
        f"Every configuration of {names} with results ({len(shown)} of {table.count}), one "
        f"line each over its parameters and metric means, coloured by "
        f"{metric_title(data.colour)}.",
        axes=keys,
        lines=len(shown),
        count=table.count,
    )
