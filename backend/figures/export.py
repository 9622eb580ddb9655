"""A registered figure for an experiment as JSON or a static file: the one export path.

The API's figure endpoints and the report bundle both call `export_figure`, so a figure in
the bundle is byte for byte what the endpoint gives for the same parameters.
"""

import math
import re
from dataclasses import dataclass
from typing import Literal

import plotly.graph_objects as go
from sqlalchemy.orm import Session

from backend.analysis.errors import AnalysisError
from backend.figures.catalog import figure_spec
from backend.figures.params import FigureQuery
from backend.figures.registry import caption_of
from backend.figures.render import renderer
from backend.figures.style import (
    PX_PER_IN,
    STYLES,
    apply_style,
    default_height_in,
    legend_height_in,
)
from backend.schemas.figure import FigureOutput

FigureFormat = Literal["json", "pdf", "svg", "png"]
# Chrome, which kaleido draws with, draws no canvas side above 16384 px: beyond it kaleido
# answers a few bytes instead of a PNG (20 x 20 in at 1200 dpi gave a 3-byte "PNG").
MAX_PNG_SIDE_PX = 16_384


class UnknownFigure(KeyError):
    """No figure of that name is registered."""


@dataclass(frozen=True)
class ExportedFigure:
    content: bytes
    caption: str


def slug(text: str) -> str:
    """A file-name-safe slug ("Workers x clients" -> "workers-x-clients")."""
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "experiment"


def check_png_size(width_in: float, height_in: float, dpi: int) -> None:
    """A PNG the browser can draw, or an AnalysisError naming `dpi` with the largest that fits."""
    for side, inches in (("width", width_in), ("height", height_in)):
        px = round(inches * dpi)
        if px > MAX_PNG_SIDE_PX:
            raise AnalysisError(
                "dpi",
                f"{dpi} dpi makes the {inches:g} in {side} {px} px; a PNG side is at most "
                f"{MAX_PNG_SIDE_PX} px, so at most {math.floor(MAX_PNG_SIDE_PX / inches)} dpi "
                "at this size",
            )


def render_figure(fig: go.Figure, fmt: FigureFormat, out: FigureOutput) -> ExportedFigure:
    """A built figure styled and sized: JSON (responsive unless a width is asked) or a
    PDF/SVG/PNG at its printed size (column width unless asked)."""
    style = STYLES[out.style]
    if fmt == "json":
        fig = apply_style(fig, style, out.width_in(None), out.height)
        return ExportedFigure(fig.to_json().encode(), caption_of(fig))
    width = out.file_width_in()
    built = fig.layout.height  # a figure's own default height (parcoords: its key)
    # A default height leaves the plot its usual size beside a legend of many entries.
    height = out.height or (
        built / PX_PER_IN
        if built
        else default_height_in(style, width) + legend_height_in(fig, style, width)
    )
    if fmt == "png":
        check_png_size(width, height, out.dpi)
    fig = apply_style(fig, style, width, height)
    return ExportedFigure(renderer.render(fig, fmt, width, height, out.dpi), caption_of(fig))


def export_figure(
    session: Session, experiment_id: int, name: str, fmt: FigureFormat, q: FigureQuery
) -> ExportedFigure:
    """A registered figure of an experiment with the page's selection, as `render_figure`."""
    spec = figure_spec(name)
    if spec is None:
        raise UnknownFigure(name)
    return render_figure(spec.make(session, experiment_id, q, fmt), fmt, q)
