"""Throughput, response time and percentiles against a factor (the results page's figures)."""

from typing import Any

import plotly.graph_objects as go

from backend.domain.labels import format_level, parameter_title
from backend.figures.data import load_percentiles, load_results
from backend.figures.knee import add_knee_marks, knee_caption, knee_marks
from backend.figures.labels import MICROSECONDS, OPS_PER_S, percentile_label, with_unit
from backend.figures.lines import (
    Line,
    Point,
    axes_text,
    line_figure,
    pinned_text,
    select,
    shape_lines,
)
from backend.figures.params import FigureQuery
from backend.figures.registry import register, set_caption
from backend.schemas import analysis as s
from backend.schemas.results import ResultMetric, ResultsPublic


def _metric_figure(
    data: ResultsPublic, q: FigureQuery, metric: ResultMetric, what: str, unit: str
) -> go.Figure:
    points = [Point(dict(r.values), r.mean(metric), r.std(metric)) for r in data.data]
    sel = select(points, q)
    lines = shape_lines(points, sel)
    fig = line_figure(
        lines,
        sel.x,
        with_unit(what, unit),
        errors=True,
        spread=q.band,
        log_x=q.log_x,
        log_y=q.log_y,
        hover_unit=unit,
    )
    knees = knee_marks(data, sel)
    on = "throughput" if metric == "throughput_per_s" else "response_time"
    add_knee_marks(fig, knees, sel.x, on)
    caption = f"{what} against {axes_text(sel)} ({data.source} side, "
    caption += f"{data.request_type.value} requests), mean and standard deviation over "
    caption += "repetitions"
    pinned = pinned_text(sel)
    caption = f"{caption}, {pinned}." if pinned else f"{caption}."
    facts = {"knees": [k.fact() for k in knees]} if knees else {}
    return set_caption(fig, caption + knee_caption(knees), **facts)


@register("throughput", "Throughput", load_results)
def throughput(data: ResultsPublic, q: FigureQuery) -> go.Figure:
    """Throughput against x, one line per series level, error bars = std over repetitions."""
    return _metric_figure(data, q, "throughput_per_s", "Throughput", OPS_PER_S)


@register("response-time", "Response time", load_results)
def response_time(data: ResultsPublic, q: FigureQuery) -> go.Figure:
    """Mean response time against x, as the throughput figure."""
    return _metric_figure(data, q, "response_time_us", "Response time", MICROSECONDS)


def _bound_mark(p: s.HistogramPercentilePublic) -> str:
    """ "<" inside the first bucket, "≥" in the overflow, "" for a resolved value."""
    if p.bound == "below":
        return "<"
    return "≥" if p.bound == "above" or p.in_overflow else ""


@register("percentiles", "Response-time percentiles", load_percentiles)
def percentiles(data: s.ExperimentPercentilesPublic, q: FigureQuery) -> go.Figure:
    """One line per percentile against x; the series factor is pinned like the others.

    A percentile the buckets cannot resolve (first or overflow bucket) is only a bound: its
    marker is open and its hover and text read "< 100" / "≥ 50000".
    """
    by_q: dict[float, list[Point]] = {p: [] for p in data.percentiles}
    marks: dict[float, list[tuple[dict[str, Any], str]]] = {}
    all_points: list[Point] = []
    for row in data.data:
        values: dict[str, Any] = dict(row.values)
        all_points.append(Point(values, None))
        for p in row.percentiles:
            by_q.setdefault(p.q, []).append(Point(values, p.value_us))
            marks.setdefault(p.q, []).append((values, _bound_mark(p)))
    sel = select(all_points, q, with_series=False)
    lines = []
    bounds: list[list[str]] = []
    for pq, points in by_q.items():
        shaped = shape_lines(points, sel)
        if shaped:
            lines.append(Line(percentile_label(pq), shaped[0].x, shaped[0].y, []))
            # Pins fix every factor but x, so an x level names one configuration.
            at_x = {
                str(format_level(v.get(sel.x))): mark
                for v, mark in marks.get(pq, [])
                if all(format_level(v.get(f)) == lv for f, lv in sel.pins.items())
            }
            bounds.append([at_x.get(str(format_level(x)), "") for x in shaped[0].x])
    fig = line_figure(
        lines,
        sel.x,
        with_unit("Response time", MICROSECONDS),
        errors=False,
        log_x=q.log_x,
        log_y=q.log_y,
        hover_unit=MICROSECONDS,
    )
    for trace, marks_of_line in zip(fig.data, bounds, strict=True):
        if any(marks_of_line):
            trace.update(
                text=marks_of_line,
                marker={"symbol": ["circle-open" if m else "circle" for m in marks_of_line]},
                hovertemplate=f"{parameter_title(sel.x)} %{{x}}: %{{text}} %{{y:.4~g}} "
                f"{MICROSECONDS}<extra>%{{fullData.name}}</extra>",
            )
    caption = f"Response-time percentiles against {axes_text(sel)} ({data.source} side) "
    caption += "from the merged histograms"
    if data.span == "whole_run":
        caption += f" ({data.span_label})"
    if any(any(b) for b in bounds):
        caption += "; open markers are bounds (first or overflow bucket)"
    pinned = pinned_text(sel)
    return set_caption(
        fig,
        f"{caption}, {pinned}." if pinned else f"{caption}.",
        span=data.span,
        span_label=data.span_label,
    )
