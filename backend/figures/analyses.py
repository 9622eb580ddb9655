"""Response-time breakdown and the interactive response time law, per configuration."""

import plotly.graph_objects as go

from backend.domain.labels import levels_label
from backend.figures.data import load_breakdown, load_interactive_law
from backend.figures.labels import MICROSECONDS, OPS_PER_S, US_PER_S, with_unit
from backend.figures.params import FigureQuery
from backend.figures.registry import register, set_caption
from backend.schemas import analysis as s

# Above this many configurations a bar is too narrow for a fill pattern or a label: the bars
# go without them (a pattern per bar made a 1,200-configuration PDF take minutes to draw).
MAX_DETAILED_BARS = 40

# The parts of the client response time, bottom to top of a stack.
BREAKDOWN_PARTS = (
    ("queue_us", "queue"),
    ("server_us", "server"),
    ("processing_us", "processing"),
    ("network_us", "network"),
)


# The parts computed as differences of measured times: only these can come out negative.
DIFFERENCES = {
    "processing_us": "middleware response time - queue - server time",
    "network_us": "client - middleware response time",
    "rest_us": "client - middleware response time - the measured round trip",
}


def negative_parts(data: s.ExperimentBreakdownPublic) -> list[str]:
    """A sentence per part below zero in some configuration: the stack draws it under the
    axis, which needs saying (a difference of separately measured times, not a duration)."""
    out = []
    for key, name in _parts(data):
        values = [v for r in data.data if (v := getattr(r, key)) is not None]
        below = [v for v in values if v < 0]
        if below and key in DIFFERENCES:
            out.append(
                f"{name} is negative in {len(below)} of {len(values)} configurations (down to "
                f"{min(below):,.0f} µs): it is {DIFFERENCES[key]}, so there the parts measured "
                "separately add up to more than the whole; its bar is drawn below zero"
            )
    return out


def _parts(data: s.ExperimentBreakdownPublic) -> list[tuple[str, str]]:
    """The stack's parts: network split into the measured round trip and the rest (named for
    what it is on the testbed) when every configuration has a measured round trip."""
    if not data.data or any(r.round_trip_us is None for r in data.data):
        return list(BREAKDOWN_PARTS)
    return [
        *BREAKDOWN_PARTS[:-1],
        ("round_trip_us", "network round trip (measured)"),
        ("rest_us", data.rest_label or "rest"),
    ]


@register("breakdown", "Response-time breakdown", load_breakdown)
def breakdown(data: s.ExperimentBreakdownPublic, q: FigureQuery) -> go.Figure:
    """One stacked bar per configuration, in µs like every other time of the product."""
    labels = [levels_label(r.values).replace(", ", "<br>") for r in data.data]
    detailed = len(labels) <= MAX_DETAILED_BARS
    plain = {} if detailed else {"marker": {"pattern": {"shape": ""}}}
    fig = go.Figure(
        [
            go.Bar(x=labels, y=[getattr(r, key) for r in data.data], name=name, **plain)
            for key, name in _parts(data)
        ]
    )
    title = "Configuration" if detailed else f"Configuration ({len(labels):,}, in grid order)"
    fig.update_layout(
        barmode="relative",
        xaxis={"title": {"text": title}, "type": "category", "showticklabels": detailed},
        yaxis={"title": {"text": with_unit("Response time", MICROSECONDS)}},
    )
    split = data.data and all(r.round_trip_us is not None for r in data.data)
    negative = negative_parts(data)
    return set_caption(
        fig,
        "Client response time split into middleware queue, memcached server, middleware "
        "processing and network time (client minus middleware response time)"
        + (
            ", the latter into the measured client -> middleware TCP round trip and the rest: "
            f"{data.rest_label}."
            if split
            else "."
        )
        + (
            ""
            if detailed
            else f" {len(labels):,} configurations: the bars are unlabelled, in the order of "
            "the summary table."
        )
        + "".join(f" Note: {n}." for n in negative),
        negative_parts=negative,
    )


@register("interactive-law", "Interactive response time law", load_interactive_law)
def interactive_law(data: s.ExperimentInteractivePublic, q: FigureQuery) -> go.Figure:
    """Measured throughput and N / (R + Z) against the number of virtual clients N."""
    rows = sorted(data.data, key=lambda r: r.clients)
    n = [r.clients for r in rows]
    fig = go.Figure(
        [
            go.Scatter(
                x=n, y=[r.measured_throughput_per_s for r in rows], name="measured", mode="markers"
            ),
            go.Scatter(
                x=n,
                y=[r.expected_throughput_per_s for r in rows],
                name="N / (R + Z)",
                mode="markers",
            ),
        ]
    )
    fig.update_layout(
        xaxis={"title": {"text": "Virtual clients N"}, "rangemode": "tozero"},
        yaxis={"title": {"text": with_unit("Throughput", OPS_PER_S)}, "rangemode": "tozero"},
    )
    how = "estimated from the data" if data.think_time_estimated else "given"
    return set_caption(
        fig,
        f"Measured throughput against the interactive response time law X = N / (R + Z), "
        f"R measured, Z = {data.think_time_s * US_PER_S:.3g} {MICROSECONDS} ({how}).",
    )
