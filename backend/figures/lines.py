"""A metric against a factor, one line per level of another: the page's selection rule.

x is a factor, `series` another factor with one line per level, and every other factor is
pinned to one level (the first, unless `pin` names one), exactly as the results page does.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import plotly.graph_objects as go

from backend.analysis.errors import AnalysisError
from backend.figures.labels import format_level, level_label, parameter_title
from backend.figures.params import FigureQuery, Spread
from backend.figures.style import series_colour


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
class Selection:
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


def select(points: Sequence[Point], q: FigureQuery, *, with_series: bool = True) -> Selection:
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
    return Selection(x, series, pins)


def shape_lines(points: Sequence[Point], sel: Selection) -> list[Line]:
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


def pinned_text(sel: Selection) -> str:
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
    categorical = any(isinstance(v, str) for line in lines for v in line.x)
    x_type = "category" if categorical else ("log" if log_x else "linear")
    y_axis: dict[str, Any] = {"title": {"text": y_title}}
    y_axis.update({"type": "log"} if log_y else {"rangemode": "tozero"})
    fig.update_layout(
        xaxis={"title": {"text": x_title}, "type": x_type},
        yaxis=y_axis,
        showlegend=len(lines) > 1 or any(line.name for line in lines),
    )
    return fig
