"""The axes of the compare page's parallel coordinates, defined once for both drawings: the
interactive go.Parcoords (the browser brushes it) and the vector drawing of PDF/SVG/PNG.

Each axis is `backend.compare.brush`'s, the numbers brushing is resolved on, with its title,
range, ticks (text levels numbered as the brush numbers them) and brushed intervals, so a
brushed interval means the same on the screen, in the API and in an exported file.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from backend.analysis.errors import AnalysisError
from backend.compare.brush import EXPERIMENT_AXIS, Axis, AxisRow, Interval, axis_of, measured
from backend.domain.compare import OVERVIEW_METRICS
from backend.domain.labels import format_level, parameter_title, sentence_case
from backend.domain.metrics import METRIC_UNITS, METRICS, MetricName, SourceKind
from backend.figures.labels import metric_title, with_unit
from backend.schemas.compare import ConfigurationTablePublic

MAX_TICKS = 12  # a numeric axis is ticked at its levels when it has at most this many
METRIC_TICKS = 5  # about this many round ticks on a metric's axis


@dataclass(frozen=True)
class ParcoordsData:
    """The configuration table of the selection, the experiments' names, the colouring metric
    and the brush to draw (constraint ranges)."""

    table: ConfigurationTablePublic
    names: dict[int, str]
    order: list[int]
    colour: MetricName
    brush: Mapping[str, Sequence[Interval]]


@dataclass(frozen=True)
class DrawnAxis:
    """One axis as both drawings show it: the values of the drawn lines, the range the axis
    spans, its ticks and the brushed intervals (in the axis' numbers)."""

    key: str
    title: str
    values: list[float]
    range: tuple[float, float]
    tickvals: list[float]
    ticktext: list[str]
    brush: list[Interval]


@dataclass(frozen=True)
class ParcoordsAxes:
    """The axes in drawing order, the drawn configurations and what colours them."""

    axes: list[DrawnAxis]
    colour: DrawnAxis
    brushed: list[bool]  # per drawn line: inside the brush (all true without one)
    present: list[int]  # experiments with configurations, in the selection's order
    count: int  # configurations in the table, drawn or not

    @property
    def lines(self) -> int:
        return len(self.brushed)


def parcoords_metrics(metric: MetricName, source: SourceKind) -> list[MetricName]:
    """The metric axes: the overview metrics the side reports (a monitor side has no
    throughput) and the colouring one, each once."""
    overview = [m for m in OVERVIEW_METRICS if source in METRICS[m].sources]
    return list(dict.fromkeys([*overview, metric]))


def axis_title(key: str) -> str:
    """ "Experiment", "Worker threads", "Throughput (ops/s)"."""
    if key == EXPERIMENT_AXIS:
        return "Experiment"
    if key in METRIC_UNITS:
        return with_unit(sentence_case(metric_title(key)), METRIC_UNITS[key])
    return parameter_title(key)


def nice_step(lo: float, hi: float, count: int = METRIC_TICKS) -> float:
    """The tick step of [lo, hi]: 1, 2 or 5 times a power of ten, about count ticks."""
    raw = (hi - lo) / count
    power = 10 ** math.floor(math.log10(raw))
    return float(next(m * power for m in (1, 2, 5, 10) if m * power >= raw))


def nice_ticks(lo: float, hi: float, count: int = METRIC_TICKS) -> list[float]:
    """Round ticks (1, 2 or 5 times a power of ten apart) inside [lo, hi]."""
    if not hi > lo:
        return [lo]
    step = nice_step(lo, hi, count)
    first = math.ceil(lo / step - 1e-9)
    return [round(k * step, 12) for k in range(first, math.floor(hi / step + 1e-9) + 1)]


def nice_span(lo: float, hi: float, count: int = METRIC_TICKS) -> tuple[float, float]:
    """[lo, hi] widened to the round ticks around it, so the axis' ends (which Plotly labels on
    the screen) read 500 and 10,500, not 533.333 and 10,000.7."""
    step = nice_step(lo, hi, count)
    return (
        float(round(math.floor(lo / step + 1e-9) * step, 12)),
        float(round(math.ceil(hi / step - 1e-9) * step, 12)),
    )


# The one number format of every axis, in both drawings: thousands separators, as many
# decimals as the step needs ("5,000" and "25,000", never "25k" beside "5,000"; an SI "k"
# cannot be kept on the screen, where Plotly's own ticks would read "500" beside "1.5k").
SCREEN_TICKFORMAT = ",~r"


def tick_text(value: float, step: float) -> str:
    """A tick of a numeric axis: "25,000", "1,500", "0.25" (SCREEN_TICKFORMAT's rule)."""
    decimals = 0 if step >= 1 else -math.floor(math.log10(step) + 1e-9)
    return f"{value:,.{decimals}f}"


def _span(values: Sequence[float]) -> tuple[float, float]:
    lo, hi = (min(values), max(values)) if values else (0.0, 1.0)
    return (lo, hi) if hi > lo else (lo - 1, hi + 1)  # one value: in the middle


def _drawn(
    axis: Axis,
    rows: Sequence[int],
    names: dict[int, str],
    brush: Sequence[Interval],
) -> DrawnAxis:
    values = [axis.values[i] for i in rows]
    if axis.levels is not None:
        text = [names[v] if axis.key == EXPERIMENT_AXIS else format_level(v) for v in axis.levels]
        ticks = [float(i) for i in range(len(text))]
        span = (0.0, float(max(len(text) - 1, 1)))
    else:
        span = _span(values)
        levels = sorted(set(values))
        if axis.key not in METRIC_UNITS and len(levels) <= MAX_TICKS:
            ticks, text = levels, [format_level(v) for v in levels]
        else:
            if axis.key in METRIC_UNITS:
                span = nice_span(*span)  # a parameter's ends are its own levels: kept
            ticks = nice_ticks(*span)
            step = ticks[1] - ticks[0] if len(ticks) > 1 else 1.0
            text = [tick_text(v, step) for v in ticks]
    return DrawnAxis(axis.key, axis_title(axis.key), values, span, ticks, text, list(brush))


def parcoords_axes(data: ParcoordsData) -> ParcoordsAxes:
    """The axes of the figure: experiment (when several), parameters, metrics; a line per
    configuration with a value on every metric axis."""
    table = data.table
    present = [e for e in data.order if any(r.experiment_id == e for r in table.data)]
    keys = [EXPERIMENT_AXIS] if len(present) > 1 else []
    keys += [*table.parameters, *table.metrics]
    if data.colour not in table.metrics:
        raise AnalysisError("metric", "the colouring metric must be one of the table's metrics")
    rows = [AxisRow(r.experiment_id, r.configuration_id, r.values, r.metrics) for r in table.data]
    metrics: set[str] = set(table.metrics)
    axes = [axis_of(k, rows, data.order, metrics) for k in keys]
    by_key = {a.key: a for a in axes}
    # A line needs a value on every axis: configurations without results are not drawn.
    shown = [
        i for i in range(len(rows)) if all(measured(by_key[m].values[i]) for m in table.metrics)
    ]
    drawn = [_drawn(a, shown, data.names, data.brush.get(a.key, ())) for a in axes]
    return ParcoordsAxes(
        axes=drawn,
        colour=next(a for a in drawn if a.key == data.colour),
        brushed=[table.data[i].brushed for i in shown],
        present=present,
        count=table.count,
    )
