"""Grouped curves of the compare page: one mean line per group over x, with its band.

The experiment of the URL is the first of the comparison, `compare` names the others; the
numbers are the compare groups endpoint's (pooled repetitions, std / se / t band).
"""

import json
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, Protocol

import plotly.graph_objects as go
from pydantic import ValidationError
from sqlalchemy.orm import Session

from backend.analysis.errors import AnalysisError
from backend.compare.service import compare_groups
from backend.domain.errors import InvalidInput
from backend.domain.labels import format_level, level_label, parameter_title
from backend.figures.labels import metric_title, printed_unit, with_unit
from backend.figures.lines import add_band, factor_axis
from backend.figures.params import FigureQuery
from backend.figures.registry import register, set_caption
from backend.figures.style import series_colour
from backend.models import Experiment
from backend.schemas.compare import GROUP_BY_EXPERIMENT, GroupsPublic, GroupsRequest

_BAND_TEXT = {"std": "mean ± std", "se": "mean ± standard error"}


def _x_value(value: Any) -> Any:
    if isinstance(value, int | float) and not isinstance(value, bool):
        return value
    return str(value)


def load_groups(session: Session, experiment_id: int, q: FigureQuery) -> GroupsPublic:
    """The groups endpoint on this experiment and the compared ones (422s naming the field)."""
    exp = session.get(Experiment, experiment_id)
    if exp is None:  # the route answers 404 before; kept for callers outside it
        raise AnalysisError("experiment", "not found")
    factors = list(exp.factors)
    x = q.x or (factors[0] if factors else "")
    if not x:
        raise AnalysisError("x", "the experiment varies no factor")
    group_by = q.group_by
    if group_by is None:
        others = [f for f in factors if f != x]
        group_by = GROUP_BY_EXPERIMENT if q.compare or not others else (q.series or others[0])
    with as_query_error():
        body = GroupsRequest(
            experiment_ids=[experiment_id, *q.compare],
            source=q.source,
            request_type=q.request_type,
            window_start_s=q.window_start_s,
            window_end_s=q.window_end_s,
            x=x,
            group_by=group_by,
            metric=q.metric,  # the endpoint checks the side reports it
            band=q.interval,
            level=q.level,
        )
        return compare_groups(session=session, body=body)


@contextmanager
def as_query_error() -> Iterator[None]:
    """The compare endpoints name body fields; in a GET figure they are query parameters. The
    request body is built from the query inside this block too: a rule of the body that the
    query cannot check (the URL's experiment given again in `compare`) is a 422, not a 500."""
    try:
        yield
    except (InvalidInput, ValidationError) as err:
        first = err.errors()[0]
        loc = [part for part in first["loc"] if part != "body"]
        field = str(loc[0]) if loc else "query"
        # The body's experiment ids are the URL's and the `compare` query parameter's.
        field = "compare" if field == "experiment_ids" else field
        raise AnalysisError(field, str(first["msg"])) from err


class AxisOptions(Protocol):
    """What the grouped curves take of a request beyond their data (GET query or POST body)."""

    log_x: bool
    log_y: bool


@register("compare-groups", "Grouped curves (compare)", load_groups)
def compare_groups_figure(data: GroupsPublic, q: AxisOptions) -> go.Figure:
    """Per group a band (server's low/high) under its mean line; the legend counts runs."""
    fig = go.Figure()
    hover = f"{parameter_title(data.x)} %{{x}}: %{{y:.4~g}} {printed_unit(data.unit)}"
    for i, g in enumerate(data.data):
        xs = [_x_value(p.x) for p in g.points]
        if any(p.low is not None for p in g.points):
            add_band(
                fig,
                i,
                xs,
                [p.low if p.low is not None else p.mean for p in g.points],
                [p.high if p.high is not None else p.mean for p in g.points],
            )
        name = (
            g.label
            if data.group_by == GROUP_BY_EXPERIMENT
            else level_label(data.group_by, _parse_level(g.key))
        )
        fig.add_trace(
            go.Scatter(
                x=xs,
                y=[p.mean for p in g.points],
                # Nested ([n]) so that a table of the figure does not read run counts as a
                # spread, as it reads a flat customdata.
                customdata=[[p.n] for p in g.points],
                # A line that averages over other parameters says so in its legend entry.
                name=f"{name} ({g.runs} runs{', pooled' if g.pooled else ''})",
                mode="lines+markers",
                legendgroup=f"s{i}",
                line={"color": series_colour(i)},
                marker={"color": series_colour(i)},
                hovertemplate=hover + "<br>%{customdata[0]} runs<extra>%{fullData.name}</extra>",
            )
        )
    what = metric_title(data.metric)
    xs = [_x_value(p.x) for g in data.data for p in g.points]
    fig.update_layout(
        xaxis=factor_axis(parameter_title(data.x), xs, q.log_x),
        yaxis={
            "title": {"text": with_unit(what[:1].upper() + what[1:], data.unit)},
            **({"type": "log"} if q.log_y else {"rangemode": "tozero"}),
        },
    )
    band = _BAND_TEXT.get(data.band, f"mean with its {100 * data.level:g}% t interval")
    by = "experiment" if data.group_by == GROUP_BY_EXPERIMENT else parameter_title(data.group_by)
    return set_caption(
        fig,
        f"{what[:1].upper() + what[1:]} against {parameter_title(data.x).lower()} per "
        f"{by.lower()}; {_pooling(data)}; band: {band}.",
    )


def pooled_levels(pooled: dict[str, list[Any]]) -> str:
    """What one group's points pool: "worker threads 8, 32 and clients per thread 1, 4"."""
    parts = [
        f"{parameter_title(name).lower()} {', '.join(format_level(v) for v in levels)}"
        for name, levels in pooled.items()
    ]
    return " and ".join(parts)


def _pooling(data: GroupsPublic) -> str:
    """Say what each point averages over: nothing beyond repetitions, or which levels of which
    parameters, per group when groups differ."""
    texts = {g.label: pooled_levels(g.pooled) for g in data.data}
    if not any(texts.values()):
        return "each point is the repetitions of one configuration"
    if len(set(texts.values())) == 1:
        return f"each point pools the repetitions of {next(iter(texts.values()))}"
    return "each point pools the repetitions of " + "; ".join(
        f"{label}: {text or 'one configuration'}" for label, text in texts.items()
    )


def _parse_level(key: str) -> Any:
    """A group key back to its level (the groups endpoint keys non-text levels as JSON)."""
    try:
        return json.loads(key)
    except ValueError:
        return key
