"""Parallel coordinates of the compare page: every configuration as one line over an axis per
experiment, varying parameter and metric, coloured by the chosen metric.

The axes are `backend.figures.parcoords_axes`' (brushing's numbers). The JSON for the browser
is a go.Parcoords (brushing needs it), which Plotly draws with WebGL, a raster in print; so
PDF, SVG and PNG draw the same axes with ordinary vector traces (`parcoords_print`).
"""

from __future__ import annotations

from typing import Any

import plotly.graph_objects as go
from sqlalchemy.orm import Session

from backend.compare.service import compare_configurations
from backend.crud import compare as crud
from backend.figures.compare import as_query_error
from backend.figures.labels import metric_title
from backend.figures.params import FigureQuery
from backend.figures.parcoords_axes import (
    SCREEN_TICKFORMAT,
    DrawnAxis,
    ParcoordsAxes,
    ParcoordsData,
    parcoords_axes,
    parcoords_metrics,
)
from backend.figures.parcoords_print import parcoords_print_figure
from backend.figures.registry import register, set_caption
from backend.schemas.compare import ConfigurationsRequest


def load_parcoords(session: Session, experiment_id: int, q: FigureQuery) -> ParcoordsData:
    """This experiment and the compared ones, every configuration (GET: no brush)."""
    ids = [experiment_id, *q.compare]
    with as_query_error():
        body = ConfigurationsRequest(
            experiment_ids=ids,
            source=q.source,
            request_type=q.request_type,
            window_start_s=q.window_start_s,
            window_end_s=q.window_end_s,
            metrics=parcoords_metrics(q.metric, q.source),
        )
        table = compare_configurations(session=session, body=body)
    return ParcoordsData(
        table, crud.read_experiment_names(session=session, ids=ids), ids, q.metric, {}
    )


# Titles slant down onto their axes, as in print: level ones overlap at 6-7 axes. From 27 deg
# Plotly anchors a title at its end (centred, its left half dipped onto the range label).
SCREEN_LABEL_ANGLE = 30


def screen_ticks(axis: DrawnAxis) -> dict[str, Any]:
    """The ticks of an axis on the screen. Plotly makes an axis with `tickvals` ordinal: a
    dragged brush snaps to cover tick values. Right when the ticks are the axis' levels (a
    drag then selects whole levels); wrong for round ticks between many levels or along a
    metric (a drag from 20.5 to the top of 1..40 ticked 10, 20, 30, 40 became 28..40). Those
    axes get Plotly's own ticks in the format tick_text writes, and an unsnapped brush."""
    if set(axis.tickvals) == set(axis.values):
        return {"tickvals": axis.tickvals, "ticktext": axis.ticktext}
    return {"tickformat": SCREEN_TICKFORMAT}


def _dimension(axis: DrawnAxis) -> dict[str, Any]:
    dim: dict[str, Any] = {
        "label": axis.title,
        "values": axis.values,
        "range": list(axis.range),
        **screen_ticks(axis),
    }
    if axis.brush:
        b = axis.brush
        dim["constraintrange"] = list(b[0]) if len(b) == 1 else [list(x) for x in b]
    return dim


def parcoords_caption(fig: go.Figure, data: ParcoordsData, pc: ParcoordsAxes) -> go.Figure:
    """The caption and facts of both drawings (what is drawn, of how many)."""
    names = ", ".join(data.names[e] for e in pc.present) or "the selection"
    return set_caption(
        fig,
        f"Every configuration of {names} with results ({pc.lines} of {pc.count}), one "
        f"line each over its parameters and metric means, coloured by "
        f"{metric_title(data.colour)}.",
        axes=[a.key for a in pc.axes],
        lines=pc.lines,
        count=pc.count,
    )


def _static(data: ParcoordsData, q: Any) -> go.Figure:
    pc = parcoords_axes(data)
    return parcoords_caption(
        parcoords_print_figure(pc, q.style, q.file_width_in(), q.height), data, pc
    )


@register("compare-parcoords", "Parallel coordinates (compare)", load_parcoords, static=_static)
def parcoords_figure(data: ParcoordsData, q: object) -> go.Figure:
    """One line per measured configuration; brushed intervals drawn as constraint ranges."""
    pc = parcoords_axes(data)
    dims = [_dimension(a) for a in pc.axes]
    fig = go.Figure(
        go.Parcoords(
            line={
                "color": pc.colour.values,
                "colorscale": "Viridis",
                "colorbar": {"title": {"text": pc.colour.title}},
            },
            dimensions=dims,
            labelangle=SCREEN_LABEL_ANGLE,
        )
    )
    # The first axis' tick labels stand left of it: room for the longest (experiment names);
    # the first axis' title is centred on it; the last's, slanted in print, runs right of it;
    # the range labels under the axes need the bottom margin.
    ticks = max((len(t) for t in pc.axes[0].ticktext), default=4) if dims else 4
    first = len(dims[0]["label"]) if dims else 4
    last = len(dims[-1]["label"]) if dims else 4
    longest = max((len(d["label"]) for d in dims), default=4)
    # About 7 px per character of 12 px text; a title ending on its axis reaches cos(30 deg) x
    # that to the left and sin(30 deg) x that up, clear of the range labels and the modebar.
    left = max(20 + 8 * ticks, 6 * first + 10)
    top = 45 + 4 * longest
    fig.update_layout(margin={"l": left, "r": 10 + 5 * last, "t": top, "b": 30})
    return parcoords_caption(fig, data, pc)
