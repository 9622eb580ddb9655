"""A metric against a factor, one line per level of another: the page's selection rule.

x is a factor, `series` another factor with one line per level, and every other factor is
pinned to one level (the first, unless `pin` names one), exactly as the results page does.
"""

from __future__ import annotations

import itertools
import json
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import plotly.graph_objects as go

from backend.analysis.errors import AnalysisError
from backend.domain.labels import format_level, level_label, parameter_label, parameter_title
from backend.figures.params import FigureQuery, Spread
from backend.figures.style import series_colour

# A numeric factor axis is ticked at its measured levels (a factor has no level 4.5), each
# one far enough from the previous tick for both labels and a character's space between them:
# a character takes about this share of the axis in a column-wide figure (8 pt digits on a
# 2.7 in axis; the page and the screen are wider).
CHAR_AXIS_SHARE = 1 / 50


def level_ticks(levels: Iterable[float], log: bool = False) -> list[float] | None:
    """The levels to tick, from the lowest, each far enough from the one before; the highest
    always (the end of the data), in place of a kept one too close to it. None where round
    numbers read better: a regular grid (1, 2, ... 50) too dense to tick every level."""
    pos = sorted({v for v in levels if not log or v > 0})
    if len(pos) < 2:
        return pos
    at = [math.log10(v) if log else v for v in pos]
    chars = [len(f"{v:g}") for v in pos]
    per_char = (at[-1] - at[0]) * CHAR_AXIS_SHARE

    def clear(i: int, j: int) -> bool:
        return at[j] - at[i] >= ((chars[i] + chars[j]) / 2 + 1) * per_char

    kept = [0]
    for i in range(1, len(pos)):
        if clear(kept[-1], i):
            kept.append(i)
    if len(kept) == len(pos):
        return pos
    steps = [b - a for a, b in itertools.pairwise(at)]
    if max(steps) - min(steps) <= 1e-9 * (at[-1] - at[0]):
        return None
    if kept[-1] != len(pos) - 1:
        # The highest is a whole span from the lowest: a kept level too close gives way to it.
        kept = [*kept[:-1], len(pos) - 1] if len(kept) > 1 else [*kept, len(pos) - 1]
    return [pos[i] for i in kept]


def factor_axis(title: str, xs: Iterable[Any], log: bool = False) -> dict[str, Any]:
    """The x axis of a factor: categories for text levels, else linear or log and ticked at
    the levels (level_ticks)."""
    values = list(xs)
    if any(isinstance(v, str) for v in values):
        return {"title": {"text": title}, "type": "category"}
    ticks = level_ticks([v for v in values if v is not None], log)
    return {
        "title": {"text": title},
        "type": "log" if log else "linear",
        **({"tickvals": ticks} if ticks else {}),
    }


@dataclass(frozen=True)
class Point:
    """One configuration's value (and its error bar half-width, if any)."""

    values: dict[str, Any]
    y: float | None
    err: float | None = None


@dataclass(frozen=True)
class Line:
    name: str
    x: list[Any]
    y: list[float]
    err: list[float]


@dataclass(frozen=True)
class LineLayout:
    """The resolved axes of a line figure: x factor, series factor ('' for none), pins."""

    x: str
    series: str
    pins: dict[str, str]


def _sort_key(value: Any) -> tuple[int, float, str]:
    if isinstance(value, int | float) and not isinstance(value, bool):
        return (0, float(value), "")
    return (1, 0.0, format_level(value))


def factor_names(points: Sequence[Point]) -> list[str]:
    """Factors in order of first appearance."""
    names: list[str] = []
    for p in points:
        names.extend(k for k in p.values if k not in names)
    return names


def levels(points: Sequence[Point], factor: str) -> list[Any]:
    """Distinct levels of a factor, numbers in numeric order."""
    seen: dict[str, Any] = {}
    for p in points:
        if factor in p.values:
            seen.setdefault(format_level(p.values[factor]), p.values[factor])
    return sorted(seen.values(), key=_sort_key)


def select(points: Sequence[Point], q: FigureQuery, *, with_series: bool = True) -> LineLayout:
    """Resolve x, series and pins against the experiment's factors (422 on unknown names)."""
    names = factor_names(points)
    if not names:
        raise AnalysisError("x", "the experiment varies no factor")
    x = q.x or names[0]
    if x not in names:
        raise AnalysisError("x", f"{x!r} is not a factor of this experiment ({', '.join(names)})")
    series = ""
    if with_series:
        others = [n for n in names if n != x]
        series = q.series if q.series is not None else (others[0] if others else "")
        if series and series not in others:
            raise AnalysisError("series", f"{series!r} is not a factor other than x")
    asked = q.pins()
    for name in asked:
        if name not in names or name in (x, series):
            raise AnalysisError("pin", f"{name!r} is not a factor left to pin")
    pins = {}
    for name in names:
        if name in (x, series):
            continue
        known = levels(points, name)
        level = asked.get(name, format_level(known[0]))
        # The UI writes levels as JSON ("true", "8"); figures print them ("yes", "8").
        match = [v for v in known if level in (format_level(v), json.dumps(v))]
        if not match:
            raise AnalysisError("pin", f"{name} has no level {level!r}")
        pins[name] = format_level(match[0])
    return LineLayout(x, series, pins)


def shape_lines(points: Sequence[Point], sel: LineLayout) -> list[Line]:
    """One line per series level over the pinned configurations, points sorted by x."""
    kept = [
        p
        for p in points
        if p.y is not None
        and all(format_level(p.values.get(f)) == lv for f, lv in sel.pins.items())
    ]
    groups: dict[str, list[Point]] = {}
    for lv in levels(kept, sel.series) if sel.series else [None]:
        members = [p for p in kept if not sel.series or p.values.get(sel.series) == lv]
        if members:
            name = level_label(sel.series, lv) if sel.series else ""
            groups[name] = sorted(members, key=lambda p: _sort_key(p.values.get(sel.x)))
    return [
        Line(
            name=name,
            x=[_axis_value(p.values.get(sel.x)) for p in members],
            y=[float(p.y) for p in members if p.y is not None],
            err=[float(p.err or 0.0) for p in members],
        )
        for name, members in groups.items()
    ]


def _axis_value(value: Any) -> Any:
    return (
        value
        if isinstance(value, int | float) and not isinstance(value, bool)
        else str(format_level(value))
    )


def axes_text(sel: LineLayout) -> str:
    """ "clients per thread, one line per worker threads" for captions: what x and the lines
    are, from the figure's own selection, so a caption never contradicts its axes."""
    x = parameter_label(sel.x)
    return f"{x}, one line per {parameter_label(sel.series)}" if sel.series else x


def pinned_text(sel: LineLayout) -> str:
    """ "at 8 worker threads, SET:GET 1:9" for captions ('' when nothing is pinned)."""
    if not sel.pins:
        return ""
    parts = []
    for name, level in sel.pins.items():
        value: Any = level
        try:
            value = int(level)
        except ValueError:
            pass
        parts.append(level_label(name, value))
    return "at " + ", ".join(parts)


def add_band(
    fig: go.Figure, index: int, x: Sequence[Any], low: Sequence[float], high: Sequence[float]
) -> None:
    """A filled band (high forwards, low backwards) in series `index`'s colour, no legend."""
    fig.add_trace(
        go.Scatter(
            x=[*x, *reversed(x)],
            y=[*high, *reversed(low)],
            mode="lines",
            fill="toself",
            fillcolor=series_colour(index, 0.2),
            line={"width": 0},
            hoverinfo="skip",
            showlegend=False,
            legendgroup=f"s{index}",
        )
    )


def _coloured(index: int) -> dict[str, Any]:
    """Line and marker in series `index`'s colour (when a band sits between the lines)."""
    return {"line": {"color": series_colour(index)}, "marker": {"color": series_colour(index)}}


def line_figure(
    lines: Sequence[Line],
    x_factor: str,
    y_title: str,
    errors: bool,
    *,
    spread: Spread = "bars",
    log_x: bool = False,
    log_y: bool = False,
    hover_unit: str = "",
) -> go.Figure:
    """Lines with markers on a factor axis; categorical when x is text.

    The spread over repetitions (when `errors`) is drawn as error bars or as a band of
    mean ± std; a band is its line's colour, drawn under it and toggled with it.
    """
    fig = go.Figure()
    x_title = parameter_title(x_factor)
    for i, line in enumerate(lines):
        band = errors and spread == "band"
        if band:
            add_band(
                fig,
                i,
                line.x,
                [y - e for y, e in zip(line.y, line.err, strict=True)],
                [y + e for y, e in zip(line.y, line.err, strict=True)],
            )
        bars = errors and spread == "bars"
        unit = f" {hover_unit}" if hover_unit else ""
        fig.add_trace(
            go.Scatter(
                x=line.x,
                y=line.y,
                name=line.name,
                mode="lines+markers",
                error_y={"type": "data", "array": line.err, "visible": True} if bars else None,
                showlegend=bool(line.name),
                legendgroup=f"s{i}",
                customdata=line.err if errors else None,
                # Hover names the x factor and the unit, as the axis titles do.
                hovertemplate=f"{x_title} %{{x}}: %{{y:.4~g}}{unit}"
                + (" ± %{customdata:.3~g}" if errors else "")
                + "<extra>%{fullData.name}</extra>",
                **(_coloured(i) if band else {}),
            )
        )
    y_axis: dict[str, Any] = {"title": {"text": y_title}}
    y_axis.update({"type": "log"} if log_y else {"rangemode": "tozero"})
    fig.update_layout(
        xaxis=factor_axis(x_title, (v for line in lines for v in line.x), log_x),
        yaxis=y_axis,
        showlegend=len(lines) > 1 or any(line.name for line in lines),
    )
    return fig
