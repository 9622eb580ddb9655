"""Histogram of one configuration and the time series of one run."""

from typing import Any

import plotly.graph_objects as go

from backend.figures.data import load_histogram, load_run_series
from backend.figures.labels import (
    MICROSECONDS,
    OPS_PER_S,
    levels_label,
    percentile_label,
    with_unit,
)
from backend.figures.params import FigureQuery
from backend.figures.registry import register, set_caption
from backend.schemas import analysis as s
from backend.schemas.series import RunSeriesPublic


def _shown_range(
    lows: list[float], highs: list[float], counts: list[float], marks: list[float]
) -> list[float] | None:
    """First to last non-empty bucket (and every percentile), padded by 5 %."""
    filled = [i for i, c in enumerate(counts) if c > 0]
    if not filled:
        return None
    lo = min([lows[filled[0]], *marks])
    hi = max([highs[filled[-1]], *marks])
    pad = 0.05 * (hi - lo)
    return [max(0.0, lo - pad), hi + pad]


@register("histogram", "Response-time histogram", load_histogram)
def histogram(data: tuple[s.HistogramPublic, dict[str, Any]], q: FigureQuery) -> go.Figure:
    """Bars as wide as their buckets, percentiles as dashed lines; the overflow is noted."""
    hist, values = data
    highs = list(hist.upper_bounds_us)
    lows = [0.0, *highs[:-1]]
    fig = go.Figure(
        go.Bar(
            x=[(lo + hi) / 2 for lo, hi in zip(lows, highs, strict=True)],
            y=list(hist.counts),
            width=[hi - lo for lo, hi in zip(lows, highs, strict=True)],
            name="requests",
            marker={"line": {"width": 0}},
            showlegend=False,
            hovertemplate=f"%{{x}} {MICROSECONDS}: %{{y}}<extra></extra>",
        )
    )
    for i, p in enumerate(hist.percentiles):
        fig.add_vline(x=p.value_us, line={"dash": "dash", "width": 1, "color": "#555555"})
        # Inside the frame, right of its line and staggered, so nothing needs a top margin.
        fig.add_annotation(
            x=p.value_us,
            xanchor="left",
            y=0.98 - 0.09 * (i % 3),
            yref="paper",
            yanchor="top",
            text={"below": "<", "above": "≥"}.get(p.bound or "", "≥" if p.in_overflow else "")
            + percentile_label(p.q),
            showarrow=False,
            bgcolor="rgba(255,255,255,0.8)",
        )
    shown = _shown_range(lows, highs, list(hist.counts), [p.value_us for p in hist.percentiles])
    fig.update_layout(
        xaxis={"title": {"text": with_unit("Response time", MICROSECONDS)}, "range": shown},
        yaxis={"title": {"text": "Requests"}, "rangemode": "tozero"},
        bargap=0,
    )
    share = hist.overflow / hist.total if hist.total else 0.0
    caption = (
        f"Response-time histogram ({q.source} side) of {levels_label(values)}, all "
        f"repetitions merged; {100 * share:.2f}% of requests above the last bucket "
        f"({highs[-1]:g} {MICROSECONDS})."
        if highs
        else "Response-time histogram."
    )
    return set_caption(fig, caption)


@register("time-series", "Time series of a run", load_run_series)
def time_series(data: RunSeriesPublic, q: FigureQuery) -> go.Figure:
    """Throughput (left axis) and response time (right axis) per second; the window shaded."""
    c = data.combined
    fig = go.Figure()
    fig.add_trace(
        go.Scatter(x=c.time_s, y=c.throughput, name="throughput", mode="lines", yaxis="y")
    )
    fig.add_trace(
        go.Scatter(x=c.time_s, y=c.response_time_us, name="response time", mode="lines", yaxis="y2")
    )
    fig.add_vrect(
        x0=data.window_start_s,
        x1=data.window_end_s,
        fillcolor="#000000",
        opacity=0.07,
        line={"width": 0},
        layer="below",
    )
    fig.update_layout(
        xaxis={"title": {"text": "Time since load start (s)"}},
        yaxis={"title": {"text": with_unit("Throughput", OPS_PER_S)}, "rangemode": "tozero"},
        yaxis2={
            "title": {"text": with_unit("Response time", MICROSECONDS)},
            "overlaying": "y",
            "side": "right",
            "rangemode": "tozero",
            "showline": True,
            "ticks": "outside",
            "showgrid": False,
            "automargin": True,
        },
    )
    caption = (
        f"Per-second throughput and response time ({q.source} side) of run {data.run_id} "
        f"(repetition {data.repetition}); shaded: the window "
        f"[{data.window_start_s} s, {data.window_end_s} s) the summaries use."
    )
    return set_caption(fig, caption)
