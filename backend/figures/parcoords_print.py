"""The parallel coordinates for files (PDF, SVG, PNG): the axes of `parcoords_axes` drawn with
ordinary vector traces, since go.Parcoords is drawn with WebGL, an embedded image in print.

Axis i stands at x = i, every value at its fraction of the axis' range (0 bottom, 1 top). The
lines are one Scatter per colour band of the colouring metric (None between lines: a few
traces, not one per configuration, so 2,000 lines stay quick); lines outside the brush are
grey under them, the brushed intervals shaded boxes on their axes. Ticks and titles are text.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import plotly.graph_objects as go
from plotly.colors import sample_colorscale

from backend.figures.parcoords_axes import DrawnAxis, ParcoordsAxes
from backend.figures.style import PX_PER_PT, STYLES

COLOURSCALE = "Viridis"  # the interactive figure's
BANDS = 12  # colour steps of the lines: finer is not told apart in print
UNBRUSHED = "#c8c8c8"
TICK_BACKGROUND = "rgba(255,255,255,0.8)"  # tick labels stay legible over the lines
BRUSH_FILL = "rgba(0,0,0,0.18)"
BRUSH_HALF = 0.08  # half the width of a brushed interval's box, in axis gaps
TITLE_ANGLE = 25  # degrees; axis titles slant in files so that neighbours do not overlap
# Width of a character in font sizes: the report's serif, the screen's wider sans-serif.
CHAR_EM = {"report": 0.5, "screen": 0.62}


def _fraction(axis: DrawnAxis, value: float) -> float:
    lo, hi = axis.range
    return (value - lo) / (hi - lo)


def _line_width_pt(lines: int) -> float:
    """Thinner lines the more there are, so that 2,000 lines do not fill the figure black."""
    return 1.0 if lines <= 50 else 0.6 if lines <= 500 else 0.35


def _polylines(pc: ParcoordsAxes, rows: list[int]) -> tuple[np.ndarray, np.ndarray]:
    """The rows' lines as one x/y pair, lines separated by NaN (a gap). Arrays, not lists:
    Plotly sends them to the browser as typed arrays, which 2,000 lines need to be quick."""
    n = len(pc.axes)
    ys = np.full((len(rows), n + 1), np.nan)
    for x, axis in enumerate(pc.axes):
        ys[:, x] = (np.asarray(axis.values)[rows] - axis.range[0]) / (axis.range[1] - axis.range[0])
    xs = np.tile(np.append(np.arange(n, dtype=float), np.nan), len(rows))
    return xs, ys.ravel()


def _band(pc: ParcoordsAxes, i: int) -> int:
    t = _fraction(pc.colour, pc.colour.values[i])
    return min(BANDS - 1, max(0, math.floor(t * BANDS)))


def _line_traces(pc: ParcoordsAxes) -> list[go.Scatter]:
    width = _line_width_pt(pc.lines) * PX_PER_PT
    common: dict[str, Any] = {"mode": "lines", "hoverinfo": "skip", "showlegend": False}
    traces = []
    grey = [i for i in range(pc.lines) if not pc.brushed[i]]
    if grey:
        xs, ys = _polylines(pc, grey)
        line = {"color": UNBRUSHED, "width": width, "dash": "solid"}
        traces.append(go.Scatter(x=xs, y=ys, line=line, name="outside the brush", **common))
    colours = sample_colorscale(COLOURSCALE, [(b + 0.5) / BANDS for b in range(BANDS)])
    for band, colour in enumerate(colours):
        rows = [i for i in range(pc.lines) if pc.brushed[i] and _band(pc, i) == band]
        if rows:
            xs, ys = _polylines(pc, rows)
            line = {"color": colour, "width": width, "dash": "solid"}
            traces.append(go.Scatter(x=xs, y=ys, line=line, name=f"band {band}", **common))
    return traces


def _axis_trace(pc: ParcoordsAxes, tick_len: float, width_px: float) -> go.Scatter:
    """Every axis line and tick mark, one black trace."""
    xs: list[Any] = []
    ys: list[Any] = []
    for x, axis in enumerate(pc.axes):
        xs += [x, x, None]
        ys += [0, 1, None]
        for v in axis.tickvals:
            y = _fraction(axis, v)
            xs += [x - tick_len, x, None]
            ys += [y, y, None]
    line = {"color": "black", "width": width_px, "dash": "solid"}
    return go.Scatter(
        x=xs, y=ys, mode="lines", line=line, hoverinfo="skip", showlegend=False, name="axes"
    )


def _colourbar(pc: ParcoordsAxes, font_px: float) -> go.Scatter:
    """An invisible point carrying the colour bar of the lines' colours."""
    lo, hi = pc.colour.range
    marker = {
        "color": [lo],
        "cmin": lo,
        "cmax": hi,
        "colorscale": COLOURSCALE,
        "showscale": True,
        "colorbar": {
            "title": {"text": pc.colour.title, "side": "right", "font": {"size": font_px}},
            "thickness": 6 * PX_PER_PT,
            "outlinewidth": 0,
            "tickvals": pc.colour.tickvals,
            "ticktext": pc.colour.ticktext,
        },
    }
    return go.Scatter(x=[None], y=[None], mode="markers", marker=marker, showlegend=False)


def parcoords_print_figure(pc: ParcoordsAxes, style_name: str) -> go.Figure:
    """The vector drawing of the axes `pc` in a style (report: no colour bar, as the
    interactive figure prints, the colouring metric has its axis; screen: a colour bar)."""
    style = STYLES[style_name]
    report = style.name == "report"
    font_px = style.font_pt * PX_PER_PT
    title_px = (style.font_pt + 1) * PX_PER_PT
    n = len(pc.axes)
    fig = go.Figure([*_line_traces(pc), _axis_trace(pc, 0.02, style.axis_line_pt * PX_PER_PT)])
    if not report:
        fig.add_trace(_colourbar(pc, font_px))
    notes: list[dict[str, Any]] = []
    for x, axis in enumerate(pc.axes):
        notes += [
            {
                "x": x,
                "y": _fraction(axis, v),
                "text": t,
                "xanchor": "right",
                "xshift": -3,
                "bgcolor": TICK_BACKGROUND,
                "borderpad": 0,
            }
            for v, t in zip(axis.tickvals, axis.ticktext, strict=True)
        ]
        notes.append(
            {
                "x": x,
                "y": 1,
                "text": axis.title,
                "textangle": -TITLE_ANGLE,
                "xanchor": "left",
                "yanchor": "bottom",
                "yshift": 4,
                "font": {"size": title_px},
            }
        )
        for lo, hi in axis.brush:
            y0, y1 = (min(max(_fraction(axis, v), 0.0), 1.0) for v in (lo, hi))
            fig.add_shape(
                type="rect",
                x0=x - BRUSH_HALF,
                x1=x + BRUSH_HALF,
                y0=y0,
                y1=y1,
                fillcolor=BRUSH_FILL,
                line={"color": "black", "width": style.axis_line_pt * PX_PER_PT},
                layer="above",
            )
    fig.update_layout(
        annotations=[{"showarrow": False, "yanchor": "middle", **a} for a in notes],
        xaxis={"visible": False, "range": [-BRUSH_HALF, max(n - 1, 1) + BRUSH_HALF]},
        yaxis={"visible": False, "range": [-0.03, 1.03]},
        margin=_margins(pc, font_px, title_px, CHAR_EM[style.name]),
    )
    return fig


def _margins(pc: ParcoordsAxes, font_px: float, title_px: float, em: float) -> dict[str, Any]:
    """Room for the first axis' tick labels (left), the slanted titles (top) and the last
    title, which runs right of its axis (right); a few pixels keep text off the edge."""
    ticks = max((len(t) for t in pc.axes[0].ticktext), default=1) if pc.axes else 1
    titles = [len(a.title) * em * title_px for a in pc.axes] or [0.0]
    angle = math.radians(TITLE_ANGLE)
    return {
        "l": round(ticks * em * font_px + 12),
        "r": round(titles[-1] * math.cos(angle) + 6),
        "t": round(max(titles) * math.sin(angle) + title_px * math.cos(angle) + 8),
        "b": round(font_px / 2 + 4),
        "pad": 0,
    }
