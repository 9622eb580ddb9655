"""The parallel coordinates for files (PDF, SVG, PNG): the axes of `parcoords_axes` drawn with
ordinary vector traces, since go.Parcoords is drawn with WebGL, an embedded image in print.

Axis i stands at x = i, every value at its fraction of the axis' range (0 bottom, 1 top). The
lines are one Scatter per colour band of the colouring metric (None between lines: a few
traces, not one per configuration, so 2,000 lines stay quick); lines outside the brush are
grey under them, the brushed intervals shaded boxes on their axes. Ticks and titles are text;
a tick label stands on an opaque box drawn over the lines (a halo: no line runs through it).

The layout is computed for the printed size (`_layout`): titles slant down onto their axes,
so that the first ones run over the tick labels' margin and the last needs no room right of
the figure, at an angle steep enough for the gap between axes; the colour bar (both styles)
lies under the plot, not beside it, where a column-wide figure has no width to spare.
Experiment names too long for the first axis' margin are never cut: the axis is ticked A, B,
... and a key under the colour bar names each in full. The key and the bar make the figure
taller than the style's default by their height, unless a height is asked for.
"""

from __future__ import annotations

import math
import string
import textwrap
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
import plotly.graph_objects as go
from plotly.colors import sample_colorscale

from backend.analysis.errors import AnalysisError
from backend.compare.brush import EXPERIMENT_AXIS
from backend.figures.parcoords_axes import DrawnAxis, ParcoordsAxes
from backend.figures.style import PX_PER_IN, PX_PER_PT, STYLES, FigureStyle, default_height_in
from backend.schemas.figure import MAX_WIDTH_IN

COLOURSCALE = "Viridis"  # the interactive figure's
BANDS = 12  # colour steps of the lines: finer is not told apart in print
UNBRUSHED = "#c8c8c8"
TICK_BACKGROUND = "white"  # opaque: a tick label hides the lines under it
NAME_CHARS = 18  # experiment names longer than this: letters on the axis, names in a key
BRUSH_FILL = "rgba(0,0,0,0.18)"
BRUSH_HALF = 0.08  # half the width of a brushed interval's box, in axis gaps
# Axis titles slant down onto their axes, steeper where the axes stand closer, so that
# neighbours never overlap (degrees).
MIN_TITLE_ANGLE, MAX_TITLE_ANGLE = 25.0, 70.0
TITLE_GAP_PX = 5.0  # clear space between neighbouring slanted titles' boxes
# Width of a character in font sizes: the report's serif, the screen's wider sans-serif
# (generous: a title's room is never too short).
CHAR_EM = {"report": 0.5, "screen": 0.62}
NARROW = ",.:;'!|il"  # characters of about half a width: a thousands separator is narrow
LINE_EM = 1.35  # height of a line of text (its box) in font sizes
MIN_PLOT_PX = 72.0  # the least height of the axes (an inch): less is refused
EDGE_PX = 4.0  # text keeps this far from the figure's edges
# A tick label's right end stands this far left of its axis; so far apart stand the labels
# of neighbouring axes when the longer ones reach the axis on their left, as they may.
TICK_SHIFT_PX = 3.0


def _letter(i: int) -> str:
    return string.ascii_uppercase[i] if i < len(string.ascii_uppercase) else str(i + 1)


def keyed(
    pc: ParcoordsAxes, style: FigureStyle, width_px: float
) -> tuple[ParcoordsAxes, list[str]]:
    """The axes with experiments ticked A, B, ... and the key's entries ("A: full name")
    where a name is longer than NAME_CHARS or the names leave neighbouring axes' tick labels
    too little room; the axes as they are and no key otherwise."""
    exp = next((a for a in pc.axes if a.key == EXPERIMENT_AXIS), None)
    if exp is None or (
        all(len(t) <= NAME_CHARS for t in exp.ticktext) and _layout(pc, style, width_px, 0).fits
    ):
        return pc, []
    letters = [_letter(i) for i in range(len(exp.ticktext))]
    key = [f"{k}: {name}" for k, name in zip(letters, exp.ticktext, strict=True)]
    axes = [replace(a, ticktext=letters) if a is exp else a for a in pc.axes]
    return replace(pc, axes=axes), key


def _key_lines(key: list[str], style: FigureStyle, width_px: float) -> list[str]:
    """The key's entries wrapped to the figure's width (later lines of an entry indented)."""
    chars = max(
        int((width_px - 2 * EDGE_PX) / (CHAR_EM[style.name] * style.font_pt * PX_PER_PT)), 8
    )
    return [
        line
        for entry in key
        for line in textwrap.wrap(entry, chars, subsequent_indent="    ", break_on_hyphens=False)
    ]


def _chars(text: str) -> float:
    """A text's length in CHAR_EM widths, narrow characters counted as half."""
    return len(text) - sum(c in NARROW for c in text) / 2


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


def _colourbar(
    pc: ParcoordsAxes, font_px: float, length_px: float, step: int, y: float
) -> go.Scatter:
    """An invisible point carrying the colour bar of the lines' colours: horizontal, under
    the plot (its bottom at `y` of the figure's height, over the key), as long as the plot
    is wide with its title."""
    lo, hi = pc.colour.range
    n = len(pc.colour.tickvals)
    # Every step-th tick; where that leaves one, the two ends.
    ticks = list(range(0, n, step)) if step < n - 1 else sorted({0, n - 1})
    marker = {
        "color": [lo],
        "cmin": lo,
        "cmax": hi,
        "colorscale": COLOURSCALE,
        "showscale": True,
        "colorbar": {
            "orientation": "h",
            "x": 0,
            "xanchor": "left",
            "y": y,
            "yref": "container",
            "yanchor": "bottom",
            "ypad": EDGE_PX,
            "xpad": 0,
            "lenmode": "pixels",
            "len": length_px,
            "title": {"text": pc.colour.title, "side": "right", "font": {"size": font_px}},
            "thickness": 6 * PX_PER_PT,
            "outlinewidth": 0,
            "tickvals": [pc.colour.tickvals[i] for i in ticks],
            "ticktext": [pc.colour.ticktext[i] for i in ticks],
            "tickangle": 0,
        },
    }
    return go.Scatter(x=[None], y=[None], mode="markers", marker=marker, showlegend=False)


@dataclass(frozen=True)
class _Layout:
    """Where the text goes at one printed size (pixels, degrees)."""

    angle: float  # of the titles, clockwise: they run down onto their axes
    margin: dict[str, float]
    title_height: float  # a title's box
    colourbar_length: float  # with its title (Plotly's bar is this less the title)
    colourbar_step: int  # tick every this many of the axis' ticks, so that labels stay apart
    colourbar_height: float  # the bar and its tick labels, with space around
    key_height: float  # the key's lines under the colour bar; 0: no key
    fits: bool  # each axis' tick labels fit between it and the axis on its left


def _title_lift(font_px: float) -> float:
    """How far a title's lower end stands above its axis' top: clear of the top tick label,
    which is centred on the axis' end, left of it."""
    return LINE_EM * font_px / 2 + 2


def _layout(pc: ParcoordsAxes, style: FigureStyle, width_px: float, key_lines: int) -> _Layout:
    """Margins and title angle for a figure `width_px` wide.

    A title ends at its axis' top and rises leftwards; neighbours are parallel strips `gap`
    apart horizontally, so `gap * sin(angle)` apart across: the angle is the least (from
    MIN_TITLE_ANGLE) that keeps a title's height and TITLE_GAP_PX between them. The left
    margin holds the first axis' tick labels and every title's left end, the top one the
    highest title, the bottom one the colour bar and the key's lines. The gap depends on the left
    margin, which depends on the angle: a few rounds settle them."""
    em = CHAR_EM[style.name]
    font_px = style.font_pt * PX_PER_PT
    title_px = (style.font_pt + 1) * PX_PER_PT
    h = LINE_EM * title_px
    lengths = [len(a.title) * em * title_px for a in pc.axes] or [0.0]
    widest = [max((_chars(t) for t in a.ticktext), default=1.0) * em * font_px for a in pc.axes]
    ticks_px = (widest[0] if widest else em * font_px) + TICK_SHIFT_PX + EDGE_PX
    angle, left = math.radians(MIN_TITLE_ANGLE), ticks_px
    for _ in range(4):
        right = h * math.sin(angle) + EDGE_PX
        gap = max((width_px - left - right) / max(len(pc.axes) - 1, 1), 1.0)
        steep = math.degrees(math.asin(min((h + TITLE_GAP_PX) / gap, 1.0)))
        angle = math.radians(min(max(steep, MIN_TITLE_ANGLE), MAX_TITLE_ANGLE))
        reach = [w * math.cos(angle) - i * gap for i, w in enumerate(lengths)]
        left = max(ticks_px, max(reach) + EDGE_PX)
    right = h * math.sin(angle) + EDGE_PX
    gap = (width_px - left - right) / max(len(pc.axes) - 1, 1)
    # The colour bar's last tick label may stand out past its end by half its width.
    label = max((_chars(t) for t in pc.colour.ticktext), default=1.0) * em * font_px
    bar_len = width_px - left - right - label / 2 - len(pc.colour.title) * em * font_px
    top = max(lengths) * math.sin(angle) + h * math.cos(angle) + _title_lift(font_px) + EDGE_PX
    # The colour bar: its title beside it, its tick labels under it; the key under it.
    bar = 6 * PX_PER_PT + LINE_EM * font_px + 2 * EDGE_PX
    key = key_lines * LINE_EM * font_px + (EDGE_PX if key_lines else 0.0)
    return _Layout(
        angle=math.degrees(angle),
        margin={"l": left, "r": right, "t": top, "b": font_px / 2 + EDGE_PX + bar + key, "pad": 0},
        title_height=h,
        colourbar_length=width_px - left - right - label / 2,
        colourbar_step=max(1, math.ceil(len(pc.colour.tickvals) * 1.5 * label / max(bar_len, 1.0))),
        colourbar_height=bar,
        key_height=key,
        fits=max(widest[1:], default=0.0) + TICK_SHIFT_PX <= gap,
    )


def _checked_layout(
    pc: ParcoordsAxes, style: FigureStyle, width_in: float, key_lines: int
) -> _Layout:
    """The layout at `width_in`; AnalysisError (naming `width` and the least width that
    fits, to a tenth of an inch) where neighbouring axes' tick labels would run together."""
    lay = _layout(pc, style, width_in * PX_PER_IN, key_lines)
    if lay.fits:
        return lay
    tenths = range(math.ceil(width_in * 10), round(MAX_WIDTH_IN * 10) + 1)
    least = next(
        (t / 10 for t in tenths if _layout(pc, style, t * PX_PER_IN / 10, key_lines).fits), None
    )
    advice = f"at least {least:g} in" if least else "fewer axes"
    raise AnalysisError(
        "width",
        f"{width_in:g} in is too narrow for the tick labels of {len(pc.axes)} axes in the "
        f"{style.name} style: {advice}",
    )


def _check_height(lay: _Layout, height_px: float) -> None:
    """AnalysisError naming `height` and the least height (a tenth of an inch) where the
    titles, colour bar and key would leave the plot under MIN_PLOT_PX."""
    need = lay.margin["t"] + lay.margin["b"] + MIN_PLOT_PX
    if height_px < need:
        least = math.ceil(need / PX_PER_IN * 10) / 10
        raise AnalysisError(
            "height",
            f"{height_px / PX_PER_IN:g} in leaves no room for the lines under the titles, "
            f"colour bar and key: at least {least:g} in",
        )


def parcoords_print_figure(
    pc: ParcoordsAxes, style_name: str, width_in: float, height_in: float | None = None
) -> go.Figure:
    """The vector drawing of the axes `pc` in a style at its printed width, with the colour
    bar and any key of experiment names under the plot; at `height_in`, or (none asked) the
    style's default height plus the bar's and the key's, which the figure's layout.height
    tells render_figure."""
    style = STYLES[style_name]
    font_px = style.font_pt * PX_PER_PT
    title_px = (style.font_pt + 1) * PX_PER_PT
    pc, key = keyed(pc, style, width_in * PX_PER_IN)
    lines = _key_lines(key, style, width_in * PX_PER_IN)
    lay = _checked_layout(pc, style, width_in, len(lines))
    extra = lay.colourbar_height + lay.key_height
    height_px = (
        height_in * PX_PER_IN
        if height_in
        else default_height_in(style, width_in) * PX_PER_IN + extra
    )
    n = len(pc.axes)
    fig = go.Figure([*_line_traces(pc), _axis_trace(pc, 0.02, style.axis_line_pt * PX_PER_PT)])
    _check_height(lay, height_px)
    bar_y = (lay.key_height + EDGE_PX) / height_px
    fig.add_trace(_colourbar(pc, font_px, lay.colourbar_length, lay.colourbar_step, bar_y))
    slant = math.radians(lay.angle)
    notes: list[dict[str, Any]] = []
    for x, axis in enumerate(pc.axes):
        notes += [
            {
                "x": x,
                "y": _fraction(axis, v),
                "text": t,
                "xanchor": "right",
                "xshift": -TICK_SHIFT_PX,
                "bgcolor": TICK_BACKGROUND,
                "borderpad": 0,
            }
            for v, t in zip(axis.tickvals, axis.ticktext, strict=True)
        ]
        # Plotly anchors the rotated box: its right edge is the title's top right corner,
        # shifted so that the end of the baseline stands over the axis.
        notes.append(
            {
                "x": x,
                "y": 1,
                "text": axis.title,
                "textangle": lay.angle,
                "xanchor": "right",
                "yanchor": "bottom",
                "xshift": lay.title_height * math.sin(slant),
                "yshift": _title_lift(font_px),
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
    if lines:
        notes.append(
            {
                "x": 0,
                "xref": "paper",
                "xanchor": "left",
                "xshift": EDGE_PX - lay.margin["l"],
                "y": 0,
                "yref": "paper",
                "yanchor": "bottom",
                "yshift": EDGE_PX - lay.margin["b"],
                "text": "<br>".join(lines),
                "align": "left",
                "name": "key",
            }
        )
    fig.update_layout(
        height=None if height_in else height_px,
        annotations=[{"showarrow": False, "yanchor": "middle", **a} for a in notes],
        xaxis={"visible": False, "range": [-BRUSH_HALF, max(n - 1, 1) + BRUSH_HALF]},
        yaxis={"visible": False, "range": [-0.03, 1.03]},
        margin={k: round(v) for k, v in lay.margin.items()},
    )
    return fig
