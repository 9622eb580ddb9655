"""The Models page's MVA calculator as a figure: a network typed in, no experiment behind it.

The figure draws the answer of /analysis/mva for the network (the solve the page's numbers
come from), so the curves and the numbers beside them are one computation. It is not in the
registry: that lists an experiment's figures, for its pages and its report bundle.
"""

import plotly.graph_objects as go

from backend.figures.labels import MICROSECONDS, OPS_PER_S, US_PER_S, with_unit
from backend.figures.registry import set_caption
from backend.figures.style import right_axis, series_colour
from backend.schemas import analysis as s

# Markers on every N only while they stay apart; a long range is drawn as lines.
_MAX_MARKED_POINTS = 40

# The legend names the curves by their symbols, which the axis titles define: three entries
# then fit one row at column width (the full names took three rows, a third of the height).
THROUGHPUT_NAME = "X(N)"
RESPONSE_NAME = "R(N)"
BOUND_NAME = "Bound"  # in X's colour, dotted; the caption says of what


def mva_calculator(result: s.MvaPublic) -> go.Figure:
    """X(N) (left axis, ops/s) and R(N) (right axis, µs) for N = 1..N, with the asymptotic
    upper bound on X dotted in X's colour when the solve included bounds."""
    n = result.populations
    mode = "lines+markers" if len(n) <= _MAX_MARKED_POINTS else "lines"
    fig = go.Figure(
        [
            go.Scatter(
                x=n,
                y=result.throughput_per_s,
                name=THROUGHPUT_NAME,
                mode=mode,
                hovertemplate=f"N = %{{x}}<br>X = %{{y:,.1f}} {OPS_PER_S}<extra></extra>",
            ),
            go.Scatter(
                x=n,
                y=[r * US_PER_S for r in result.response_time_s],
                name=RESPONSE_NAME,
                mode=mode,
                yaxis="y2",
                hovertemplate=f"N = %{{x}}<br>R = %{{y:,.1f}} {MICROSECONDS}<extra></extra>",
            ),
        ]
    )
    b = result.bounds
    if b is not None:
        fig.add_trace(
            go.Scatter(
                x=b.populations,
                y=b.aba_throughput_upper,
                name=BOUND_NAME,
                mode="lines",
                line={"dash": "dot", "color": series_colour(0)},
                hovertemplate=f"N = %{{x}}<br>X ≤ %{{y:,.1f}} {OPS_PER_S}<extra></extra>",
            )
        )
    fig.update_layout(
        xaxis={"title": {"text": "Virtual clients N"}, "rangemode": "tozero"},
        yaxis={"title": {"text": with_unit("Throughput X", OPS_PER_S)}, "rangemode": "tozero"},
        yaxis2=right_axis(with_unit("Response time R", MICROSECONDS)),
    )
    return set_caption(fig, _caption(result))


def _caption(result: s.MvaPublic) -> str:
    names = ", ".join(st.name for st in result.stations)
    z = result.think_time_s * US_PER_S
    dotted = "; dotted: the asymptotic upper bound on X" if result.bounds is not None else ""
    return (
        f"Exact MVA of a closed network ({names}), think time Z = {z:.3g} {MICROSECONDS}: "
        f"throughput and response time for N = 1..{result.populations[-1]} virtual clients; "
        f"bottleneck: {result.bottleneck}{dotted}."
    )
