"""How a model figure shows a measurement that does not fit its model (the verdicts of
backend.analysis.model_fit): an open cross for the measured point, a short annotation beside
it, and the full message in the caption (so the report's PDF says it in words too)."""

from typing import Protocol

import plotly.graph_objects as go

FLAG_COLOR = "#c0392b"


class FitLike(Protocol):
    """The fields of a fit flag a figure reads (the schema's FitPublic)."""

    @property
    def verdict(self) -> str: ...
    @property
    def measured(self) -> float: ...
    @property
    def label(self) -> str: ...
    @property
    def message(self) -> str | None: ...


def mark_flagged(
    fig: go.Figure,
    trace: int,
    fits: list[tuple[float, FitLike | None]],
    scale: float = 1.0,
) -> str:
    """Mark the flagged points of the measured trace `trace` (fits by x, any number per x):
    an open cross instead of its marker (in the trace's colour, the style's) and a red
    annotation (the first flag of the point); returns the caption's sentence listing every
    message ("" when every point fits)."""
    bad = [(x, f) for x, f in fits if f is not None and f.verdict != "fits"]
    if not bad:
        return ""
    first: dict[float, FitLike] = {}
    for x, f in bad:
        first.setdefault(x, f)
    measured = fig.data[trace]
    xs = list(measured.x)
    measured.marker.symbol = ["x-open" if x in first else "circle" for x in xs]
    measured.marker.size = [14 if x in first else 8 for x in xs]
    measured.hovertext = [(first[x].message if x in first else "") for x in xs]
    for x, f in first.items():
        fig.add_annotation(
            x=x,
            y=f.measured * scale,
            text=f.label,
            showarrow=True,
            arrowcolor=FLAG_COLOR,
            font={"color": FLAG_COLOR},
            ax=0,
            ay=-28,
        )
    return " Does not fit: " + "; ".join(f.message or "" for _, f in bad) + "."
