"""The two looks of every figure, defined once: `report` (print) and `screen` (the UI).

A style is a Plotly template plus a size rule, applied after a figure is built, so figure
functions never choose fonts, colours or markers. The report style follows what journal
styles (e.g. SciencePlots' IEEE style) do: serif text of 8 pt at the printed width, thin
black axes with outside ticks, and series told apart by marker and dash as well as colour,
so that they survive grayscale printing; error bars are drawn in the series' colour.

Plotly works in CSS pixels, 96 per inch (a PDF page of W px is W * 0.75 pt wide), so sizes
in inches and points are converted here and nowhere else.
"""

from dataclasses import dataclass
from typing import Any

import plotly.graph_objects as go

from backend.schemas.figure import StyleName

PX_PER_IN = 96.0
PX_PER_PT = PX_PER_IN / 72.0

# Okabe-Ito colours, reordered so that neighbours also differ in lightness.
_PALETTE = ("#000000", "#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9")
# Bars are large areas: a mid grey first, then colours of distinct lightness.
_BAR_PALETTE = ("#6e6e6e", "#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00")
_SYMBOLS = ("circle", "square-open", "diamond", "triangle-up-open", "x", "circle-open", "star")
_DASHES = ("solid", "dash", "dot", "dashdot", "longdash", "longdashdot", "solid")
# Stacked bars: a fill pattern per part, legible without colour.
_PATTERNS = ("", "/", ".", "x", "\\", "+", "-")


def series_colour(index: int, alpha: float = 1.0) -> str:
    """Colour of series `index` (as the template gives it), for bands drawn beside a line."""
    hex_colour = _PALETTE[index % len(_PALETTE)]
    if alpha >= 1.0:
        return hex_colour
    r, g, b = (int(hex_colour[i : i + 2], 16) for i in (1, 3, 5))
    return f"rgba({r},{g},{b},{alpha:g})"


@dataclass(frozen=True)
class FigureStyle:
    """Fonts, strokes and default proportions of one look."""

    name: StyleName
    font_family: str
    font_pt: float
    line_pt: float
    marker_pt: float
    axis_line_pt: float
    grid: bool
    height_ratio: float  # default height = width * ratio, clamped to min..max
    min_height_in: float
    max_height_in: float


REPORT = FigureStyle(
    name="report",
    # A Times face, as most journals set text: Liberation Serif (Debian fonts-liberation) is
    # TrueType, which Chromium embeds as a TrueType font; OpenType/CFF faces such as Latin
    # Modern come out as Type 3 fonts, which publishers' PDF checks reject.
    font_family="Times New Roman, Liberation Serif, Times, serif",
    font_pt=8.0,
    line_pt=1.0,
    marker_pt=4.0,
    axis_line_pt=0.6,
    grid=False,
    height_ratio=0.72,
    min_height_in=2.0,
    max_height_in=3.2,
)
SCREEN = FigureStyle(
    name="screen",
    font_family="system-ui, -apple-system, Segoe UI, Roboto, sans-serif",
    font_pt=9.0,
    line_pt=1.5,
    marker_pt=5.0,
    axis_line_pt=0.75,
    grid=True,
    height_ratio=0.55,
    min_height_in=3.0,
    max_height_in=4.5,
)
STYLES: dict[str, FigureStyle] = {s.name: s for s in (REPORT, SCREEN)}


def default_height_in(style: FigureStyle, width_in: float) -> float:
    """Height for a width when none is asked for."""
    return min(max(width_in * style.height_ratio, style.min_height_in), style.max_height_in)


# What a legend entry takes beside its text (Plotly: a 30 px symbol, gaps) and a generous
# serif character width in ems (Liberation Serif measured 0.39 in legend entries such as
# "bytes/s net:client-1:eth0"), so the estimate below rarely falls short: a row too many only
# makes the plot taller.
_LEGEND_SYMBOL_PX = 40.0
_EM_PER_CHAR = 0.45
_LEGEND_ROW_EM = 1.5  # Plotly's row: 1.43 times the font size
# The margins beside a legend placed over the plot's width (y axis labels and title, right edge).
_LEGEND_SIDE_PX = 50.0


# A legend of a hundred lines would make a figure taller than a page: beyond this it crowds
# the plot (Plotly shrinks the plot first).
MAX_LEGEND_IN = 5.0


def legend_height_in(fig: go.Figure, style: FigureStyle, width_in: float) -> float:
    """A generous estimate of the height of the figure's legend (horizontal, above the plot)
    at `width_in`: Plotly sets the entries in columns as wide as the widest entry, as many as
    fit across the plot.

    Plotly gives the legend room by growing the top margin, but gives up (and draws it over
    the plot) when the plot would be left too small; a column-wide figure of many lines (the
    machines' CPU and network) was. A static figure is made taller by this much instead, so
    its plot keeps the height of a figure without a legend."""
    names = [
        str(t.name)
        for t in fig.data
        if t.name and t.showlegend is not False and getattr(t, "visible", True) is not False
    ]
    titles = {
        str(t.legendgrouptitle.text)
        for t in fig.data
        if getattr(t, "legendgrouptitle", None) and t.legendgrouptitle.text
    }
    shown = fig.layout.showlegend
    if shown is False or (shown is None and len(names) < 2):
        return 0.0
    font_px = _px(style.font_pt - 0.5)
    entries = [*titles, *names]
    widest = _LEGEND_SYMBOL_PX + _EM_PER_CHAR * font_px * max(len(e) for e in entries)
    columns = max(1, int((width_in * PX_PER_IN - _LEGEND_SIDE_PX) // widest))
    rows = -(-len(entries) // columns)
    return min(rows * _LEGEND_ROW_EM * font_px / PX_PER_IN, MAX_LEGEND_IN)


def _px(pt: float) -> float:
    return round(pt * PX_PER_PT, 3)


def _series_looks(style: FigureStyle) -> list[dict[str, Any]]:
    """Per-trace defaults that Plotly cycles through: trace i gets look i mod 7."""
    return [
        {
            "marker": {"symbol": sym, "size": _px(style.marker_pt), "color": col},
            "line": {"dash": dash, "width": _px(style.line_pt), "color": col},
            "error_y": {"thickness": _px(style.line_pt * 0.75), "width": _px(2.5), "color": col},
            "error_x": {"thickness": _px(style.line_pt * 0.75), "width": _px(2.5), "color": col},
        }
        for col, sym, dash in zip(_PALETTE, _SYMBOLS, _DASHES, strict=True)
    ]


def _parcoords(style: FigureStyle) -> go.Parcoords:
    """Parallel coordinates: the colour bar's text at the text size (Plotly draws its title
    larger) and a thin bar. In print, where a column is narrow, axis titles are slanted so
    that they do not overlap, and the colour bar is left out: the colouring metric is an axis
    of its own. Plotly's range labels over and under each axis are left out in both styles:
    axes end on a level or a round number (parcoords_axes.nice_span), where they printed the
    top tick's number a second time, just above it."""
    font = {"family": style.font_family, "size": _px(style.font_pt), "color": "black"}
    report = style.name == "report"
    return go.Parcoords(
        labelangle=-25 if report else 0,
        labelside="top",
        labelfont={**font, "size": _px(style.font_pt + 1)},  # axis titles, as on other axes
        tickfont=font,
        rangefont={**font, "color": "rgba(0,0,0,0)"},
        line={
            "showscale": not report,
            "colorbar": {
                "thickness": _px(6),
                "title": {"side": "right", "font": font},
                "tickfont": font,
                "outlinewidth": 0,
            },
        },
    )


def template(style: FigureStyle) -> go.layout.Template:
    """The Plotly template of a style (fonts, axes, series looks, bar patterns)."""
    font = {"family": style.font_family, "size": _px(style.font_pt), "color": "black"}
    axis = {
        "showline": True,
        "linecolor": "black",
        "linewidth": _px(style.axis_line_pt),
        "mirror": style.name == "report",
        "ticks": "outside",
        "ticklen": _px(3),
        "tickwidth": _px(style.axis_line_pt),
        "showgrid": style.grid,
        "gridcolor": "#e6e6e6",
        "zeroline": False,
        "automargin": True,
        # One point above the text (Plotly's default is 1.2x, 9.6 pt in print: over 9 pt).
        "title": {"standoff": _px(3), "font": {"size": _px(style.font_pt + 1)}},
    }
    # Overlay: the pattern is drawn over the bar's colour instead of replacing it.
    bars = [
        {
            "marker": {
                "color": col,
                "line": {"width": 0},
                "pattern": {"shape": pat, "fillmode": "overlay", "fgcolor": "white", "size": 4},
            }
        }
        for col, pat in zip(_BAR_PALETTE, _PATTERNS, strict=True)
    ]
    return go.layout.Template(
        layout={
            "font": font,
            "paper_bgcolor": "white",
            "plot_bgcolor": "white",
            "colorway": list(_PALETTE),
            "xaxis": axis,
            "yaxis": axis,
            "legend": {
                "font": {"size": _px(style.font_pt - 0.5)},
                "orientation": "h",
                "x": 0,
                "xanchor": "left",
                "y": 1.02,
                "yanchor": "bottom",
                "bgcolor": "rgba(255,255,255,0)",
                "itemwidth": 30,
                "tracegroupgap": 0,
                # Every entry, however many: a horizontal legend is otherwise cut at half the
                # figure's height (the machines' network lines were left out).
                "maxheight": 1.0,
            },
            # Axis automargin grows these for tick labels and titles; the bottom keeps a
            # little air under the x title.
            "margin": {"l": 4, "r": 6, "t": 4, "b": round(_px(style.font_pt) * 1.4), "pad": 0},
            # Plotly gives up a margin push (and draws the legend over the plot, or cuts an
            # axis title) when the plot would keep less than these; static figures are made
            # taller for their legend (legend_height_in), and where a height is asked the plot
            # shrinks rather than be covered.
            "minreducedheight": 24,
            "minreducedwidth": 24,
            "bargap": 0.25,
            "hoverlabel": {"font": {"family": style.font_family}},
        },
        data={
            "scatter": [go.Scatter(**look) for look in _series_looks(style)],
            "bar": [go.Bar(**b) for b in bars],
            "parcoords": [_parcoords(style)],
        },
    )


def right_axis(title: str) -> dict[str, Any]:
    """A second y axis on the right (e.g. response time beside throughput): ticked and lined
    like the left one, without a grid of its own that would cross the left one's."""
    return {
        "title": {"text": title},
        "overlaying": "y",
        "side": "right",
        "rangemode": "tozero",
        "showline": True,
        "ticks": "outside",
        "showgrid": False,
        "automargin": True,
        # Round numbers of its own (Plotly would otherwise sync its ticks to the left
        # axis' grid: 1390, 2780, ... µs).
        "tickmode": "auto",
    }


def apply_style(
    fig: go.Figure, style: FigureStyle, width_in: float | None, height_in: float | None
) -> go.Figure:
    """Give a built figure its look and, when a width is given, its printed size.

    Without a width the figure stays responsive (the UI fills its container); the report
    style always has a size, since point sizes only mean something at a printed width.
    """
    fig.update_layout(template=template(style), title=None)
    if width_in is not None:
        height = height_in if height_in is not None else default_height_in(style, width_in)
        fig.update_layout(width=width_in * PX_PER_IN, height=height * PX_PER_IN, autosize=False)
    return fig
