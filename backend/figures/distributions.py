"""Histogram of one configuration and the time series of one run."""

import math
from typing import Any

import plotly.graph_objects as go

from backend.domain.labels import levels_label
from backend.figures.data import load_histogram, load_run_series
from backend.figures.labels import (
    MICROSECONDS,
    OPS_PER_S,
    percentile_label,
    source_label,
    with_unit,
)
from backend.figures.params import FigureQuery
from backend.figures.registry import register, set_caption
from backend.figures.style import right_axis
from backend.schemas import analysis as s
from backend.schemas.series import RunSeriesPublic

# The share of requests the shown x range holds; the rest is a sparse tail (zoom out to see).
ZOOM_SHARE = 0.995


def _shown_range(
    lows: list[float], highs: list[float], counts: list[float], marks: list[float]
) -> list[float] | None:
    """First non-empty bucket to where ZOOM_SHARE of the requests are (and every percentile),
    padded by 5 %: a sparse tail of slow requests would squeeze the data into one bar."""
    filled = [i for i, c in enumerate(counts) if c > 0]
    if not filled:
        return None
    total, seen, last = sum(counts), 0.0, filled[0]
    for i, c in enumerate(counts):
        seen += c
        if c > 0:
            last = i
        if seen >= ZOOM_SHARE * total:
            break
    lo = min([lows[filled[0]], *marks])
    hi = max([highs[last], *marks])
    pad = 0.05 * (hi - lo)
    return [max(0.0, lo - pad), hi + pad]


def _marker_text(p: s.HistogramPercentilePublic) -> str:
    """ "p50", "≥p99" for a percentile in the overflow, "<p50" inside the first bucket."""
    bound = {"below": "<", "above": "≥"}.get(p.bound or "", "≥" if p.in_overflow else "")
    return bound + percentile_label(p.q)


@register("histogram", "Response-time histogram", load_histogram)
def histogram(data: tuple[s.HistogramPublic, dict[str, Any]], q: FigureQuery) -> go.Figure:
    """Bars as wide as their buckets, percentiles as dashed lines; the overflow is noted.

    On a log x axis the first bucket, which starts at 0, is drawn from half its bound.
    """
    hist, values = data
    highs = list(hist.upper_bounds_us)
    lows = [0.0, *highs[:-1]]
    if q.log_x and lows:
        lows[0] = highs[0] / 2
    fig = go.Figure(
        go.Bar(
            x=[(lo + hi) / 2 for lo, hi in zip(lows, highs, strict=True)],
            y=list(hist.counts),
            width=[hi - lo for lo, hi in zip(lows, highs, strict=True)],
            customdata=[[lo, hi] for lo, hi in zip(lows, highs, strict=True)],
            name="requests",
            marker={"line": {"width": 0}},
            showlegend=False,
            hovertemplate=f"%{{customdata[0]:.4~g}}–%{{customdata[1]:.4~g}} {MICROSECONDS}: "
            "%{y} requests<extra></extra>",
        )
    )
    # Percentiles at one value share a label; labels are staggered so neighbours do not overlap.
    at: dict[float, list[s.HistogramPercentilePublic]] = {}
    for p in hist.percentiles:
        at.setdefault(p.value_us, []).append(p)
    for p in hist.percentiles:
        fig.add_vline(x=p.value_us, line={"dash": "dash", "width": 1, "color": "#555555"})
    for i, (value, ps) in enumerate(at.items()):
        # Inside the frame, right of its line, so nothing needs a top margin.
        fig.add_annotation(
            x=math.log10(max(value, 1e-9)) if q.log_x else value,
            xanchor="left",
            y=0.98 - 0.09 * (i % 3),
            yref="paper",
            yanchor="top",
            text="/".join(_marker_text(p) for p in ps),
            showarrow=False,
            bgcolor="rgba(255,255,255,0.8)",
        )
    shown = _shown_range(
        lows, highs, list(hist.counts), [p.value_us for p in hist.percentiles if not p.in_overflow]
    )
    beyond = hist.overflow + (
        sum(c for lo, c in zip(lows, hist.counts, strict=True) if lo >= shown[1]) if shown else 0
    )
    x_range = shown
    if shown is not None and q.log_x:
        x_range = [math.log10(max(shown[0], lows[0] if lows else 1.0)), math.log10(shown[1])]
    fig.update_layout(
        xaxis={
            "title": {"text": with_unit("Response time", MICROSECONDS)},
            "range": x_range,
            "type": "log" if q.log_x else "linear",
        },
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
    return set_caption(fig, caption, beyond=int(beyond))


@register("time-series", "Time series of a run", load_run_series)
def time_series(data: RunSeriesPublic, q: FigureQuery) -> go.Figure:
    """Throughput (left axis) and response time (right axis) per second; the window shaded,
    a re-cut window outlined; with several instances each one too, hidden until picked in
    the legend (to check they line up)."""
    c = data.combined
    fig = go.Figure()
    tp_hover = f"%{{x}} s: %{{y:.4~g}} {OPS_PER_S}<extra>%{{fullData.name}}</extra>"
    rt_hover = f"%{{x}} s: %{{y:.4~g}} {MICROSECONDS}<extra>%{{fullData.name}}</extra>"
    fig.add_trace(
        go.Scatter(
            x=c.time_s,
            y=c.throughput,
            name="throughput",
            mode="lines",
            yaxis="y",
            hovertemplate=tp_hover,
        )
    )
    fig.add_trace(
        go.Scatter(
            x=c.time_s,
            y=c.response_time_us,
            name="response time",
            mode="lines",
            yaxis="y2",
            hovertemplate=rt_hover,
        )
    )
    if len(data.instances) > 1:
        for inst in data.instances:
            x = [inst.offset_s + i for i in range(len(inst.throughput))]
            for y, axis, what, hover in (
                (inst.throughput, "y", "throughput", tp_hover),
                (inst.response_time_us, "y2", "response time", rt_hover),
            ):
                fig.add_trace(
                    go.Scatter(
                        x=x,
                        y=y,
                        name=f"{source_label(inst.source)}: {what}",
                        mode="lines",
                        yaxis=axis,
                        visible="legendonly",
                        hovertemplate=hover,
                    )
                )
    fig.add_vrect(
        x0=data.window_start_s,
        x1=data.window_end_s,
        fillcolor="#000000",
        opacity=0.07,
        line={"width": 0},
        layer="below",
    )
    cut = ""
    if q.window_start_s is not None and q.window_end_s is not None:
        fig.add_vrect(
            x0=q.window_start_s,
            x1=q.window_end_s,
            line={"width": 1, "dash": "dash", "color": "#555555"},
            fillcolor="rgba(0,0,0,0)",
        )
        cut = f"; dashed: the re-cut window [{q.window_start_s} s, {q.window_end_s} s)"
    fig.update_layout(
        xaxis={"title": {"text": "Time since load start (s)"}},
        yaxis={"title": {"text": with_unit("Throughput", OPS_PER_S)}, "rangemode": "tozero"},
        yaxis2=right_axis(with_unit("Response time", MICROSECONDS)),
    )
    stored = "" if data.window_stored else " (from the design; the run stored no summary)"
    caption = (
        f"Per-second throughput and response time ({q.source} side) of run {data.run_id} "
        f"(repetition {data.repetition}); shaded: the stable window "
        f"[{data.window_start_s} s, {data.window_end_s} s){stored} the summaries use{cut}."
    )
    return set_caption(fig, caption)
