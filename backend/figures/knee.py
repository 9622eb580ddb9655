"""The saturation knee of each throughput line against a count of clients, marked on the
throughput and response-time figures with the response time there.

The knee is `backend.analysis.saturation.knee` (the first load reaching KNEE_FRACTION of the
line's maximum throughput), applied to each line the figure draws: the same pins and series
as its lines, so a mark always sits on a drawn point.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import plotly.graph_objects as go

from backend.analysis.saturation import KNEE_FRACTION, Series, knee
from backend.domain.labels import parameter_title
from backend.domain.parameters import CLIENT_COUNT_PARAMETERS
from backend.figures.lines import LineLayout, Point, shape_lines
from backend.figures.style import series_colour
from backend.schemas.results import ResultsPublic

# Fewer loads than this draw no curve to bend: no knee is marked.
MIN_LOADS = 3


@dataclass(frozen=True)
class KneeMark:
    """The knee of one drawn line: its load, and throughput and response time there."""

    line: str  # the line's legend name ('' for a figure of one line)
    index: int  # the line's position (its colour)
    load: float
    throughput_per_s: float
    response_time_us: float | None

    def fact(self) -> dict[str, Any]:
        """As the figure's metadata states it (layout.meta.knees)."""
        return {
            "line": self.line,
            "load": self.load,
            "throughput_per_s": self.throughput_per_s,
            "response_time_us": self.response_time_us,
        }


def knee_marks(data: ResultsPublic, sel: LineLayout) -> list[KneeMark]:
    """Per drawn line, its knee when x counts clients and the line saturates: the knee lies
    below its largest load (a line still climbing at its last load shows no knee)."""
    if sel.x not in CLIENT_COUNT_PARAMETERS:
        return []
    rows = data.data
    tp_lines = shape_lines([Point(dict(r.values), r.mean("throughput_per_s")) for r in rows], sel)
    rt_lines = shape_lines([Point(dict(r.values), r.mean("response_time_us")) for r in rows], sel)
    rt_at = {line.name: dict(zip(line.x, line.y, strict=True)) for line in rt_lines}
    marks = []
    for i, line in enumerate(tp_lines):
        if len(line.x) < MIN_LOADS or not all(isinstance(v, int | float) for v in line.x):
            continue
        loads = tuple(float(v) for v in line.x)
        k = knee(Series(line.name, 0.0, loads, tuple(line.y)))
        if k.knee_load >= max(loads):
            continue
        at = next(v for v in line.x if float(v) == k.knee_load)
        rt = rt_at.get(line.name, {}).get(at)
        marks.append(KneeMark(line.name, i, k.knee_load, k.knee_throughput_per_s, rt))
    return marks


def _label(mark: KneeMark) -> str:
    rt = "" if mark.response_time_us is None else f", {mark.response_time_us:,.0f} us"
    return f"knee{rt}"


def add_knee_marks(fig: go.Figure, marks: list[KneeMark], x_factor: str, y: str) -> None:
    """An open diamond at each knee, on the throughput (`y` "throughput") or the response
    time ("response_time") of the line, labelled with the response time there."""
    x_title = parameter_title(x_factor)
    for m in marks:
        value = m.throughput_per_s if y == "throughput" else m.response_time_us
        if value is None:
            continue
        name = f"knee {m.line}".strip()
        fig.add_trace(
            go.Scatter(
                x=[m.load],
                y=[value],
                name=name,
                mode="markers+text",
                marker={
                    "symbol": "diamond-open",
                    "size": 13,
                    "line": {"width": 2},
                    "color": series_colour(m.index),
                },
                text=[_label(m)],
                textposition="top left",
                textfont={"color": series_colour(m.index)},
                showlegend=False,
                legendgroup=f"s{m.index}",
                hovertemplate=f"{name} at {x_title} {m.load:g}: {m.throughput_per_s:,.0f} ops/s"
                + ("" if m.response_time_us is None else f", {m.response_time_us:,.0f} us")
                + "<extra></extra>",
            )
        )


def knee_caption(marks: list[KneeMark]) -> str:
    """The caption's sentence on the marks ('' without any)."""
    if not marks:
        return ""
    return (
        f" Open diamond: the saturation knee of each line, the first load reaching "
        f"{KNEE_FRACTION:.0%} of its maximum throughput, labelled with the response time there."
    )
