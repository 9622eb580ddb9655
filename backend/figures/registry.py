"""The figures of the product: a name, a data function and a build function each.

Adding a figure is one build function (data -> Plotly figure) and one `register` call; the
JSON/PDF/SVG/PNG endpoints, the report bundle and the UI's export buttons pick it up.
"""

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import plotly.graph_objects as go
from sqlalchemy.orm import Session

from backend.figures.params import FigureQuery

Loader = Callable[[Session, int, FigureQuery], Any]
# The second argument is the request: a FigureQuery, or the compare page's POST body for its
# figures (backend.figures.compare_page); a build function reads the options it needs.
Builder = Callable[[Any, Any], go.Figure]


@dataclass(frozen=True)
class FigureSpec:
    """One figure: `load` reads its data (the page's numbers), `build` draws them."""

    name: str
    title: str
    load: Loader
    build: Builder
    # The drawing for PDF, SVG and PNG when it differs from the JSON's: a figure the browser
    # draws with WebGL (a raster in print) is drawn for files with vector traces.
    static: Builder | None = None

    def builder(self, fmt: str) -> Builder:
        """The build function for a format: `static` for files when there is one."""
        return self.static if self.static is not None and fmt != "json" else self.build

    def make(
        self, session: Session, experiment_id: int, query: FigureQuery, fmt: str = "json"
    ) -> go.Figure:
        """The unstyled figure for an experiment, a selection and a format."""
        return self.builder(fmt)(self.load(session, experiment_id, query), query)


FIGURES: dict[str, FigureSpec] = {}
"""The report's figures: listed, bundled and offered by the report builder."""
LIVE_FIGURES: dict[str, FigureSpec] = {}
"""Figures of a run in progress: served like the others, never in a report (no data after)."""


def register(
    name: str, title: str, load: Loader, *, live: bool = False, static: Builder | None = None
) -> Callable[[Builder], Builder]:
    """Decorator: `@register("throughput", "Throughput", load_results)` on a build function
    (`static`: another build function for the files, see FigureSpec)."""

    def wrap(build: Builder) -> Builder:
        if name in FIGURES or name in LIVE_FIGURES:
            raise ValueError(f"figure {name!r} registered twice")
        (LIVE_FIGURES if live else FIGURES)[name] = FigureSpec(name, title, load, build, static)
        return build

    return wrap


def figure_spec(name: str) -> FigureSpec | None:
    """A report or live figure by name."""
    return FIGURES.get(name) or LIVE_FIGURES.get(name)


def caption_of(fig: go.Figure) -> str:
    """The caption a build function stored in layout.meta (what is pinned, what is plotted)."""
    meta = fig.layout.meta
    return str(meta.get("caption", "")) if isinstance(meta, dict) else ""


def set_caption(fig: go.Figure, caption: str, **facts: Any) -> go.Figure:
    """Store a caption beside the figure (not drawn: print figures carry no title), and any
    facts the page states in words next to it (e.g. requests beyond the shown range)."""
    fig.update_layout(meta={"caption": caption, **facts})
    return fig
