"""The compare page's difference table as a report table (CSV and booktabs LaTeX).

The rows are `/compare/differences`' own: the statistics are computed there once; this only
lays them out, with units in the headers, the confidence level in the group titles, and a
caption naming the experiments, the base and the metric.
"""

from typing import Literal

from backend.domain.compare import Verdict
from backend.domain.labels import format_level, levels_label, parameter_title, sentence_case
from backend.figures.labels import metric_title, printed_unit, with_unit
from backend.schemas.compare import DifferenceRowPublic, DifferencesPublic
from backend.tables.table import Cell, Column, Number, Table, latex_label

VERDICT_TEXT: dict[Verdict, str] = {
    "significant": "significant",
    "not_distinguishable": "not distinguishable",
    "insufficient": "too few repetitions",
}


def _base_text(data: DifferencesPublic, names: dict[int, str]) -> str:
    if data.mode == "experiments" or not data.data:
        base = data.data[0].base_experiment_id if data.data else None
        return f"experiment {names.get(base, '?')}" if base is not None else "the base"
    row = data.data[0]
    return f"configuration {row.base_configuration_id} of {names[row.base_experiment_id]}"


def _caption(data: DifferencesPublic, names: dict[int, str], bounds: bool = True) -> str:
    """`bounds`: the table gives an interval as [low, high], else as a half-width (±)."""
    level = f"{100 * data.level:g}%"
    metrics = ", ".join(metric_title(m) for m in data.units)
    experiments = ", ".join(sorted({names.get(r.experiment_id, "?") for r in data.data}))
    interval = "intervals [low, high] (relative: Fieller's)" if bounds else "intervals (±)"
    return (
        f"{sentence_case(metrics)} of {experiments or 'no experiment'} compared with "
        f"{_base_text(data, names)}: means over repetitions; differences with {level} Welch t "
        f"{interval}; significant (Sig.) when the interval excludes zero."
    )


TableWidth = Literal["column", "page"]


def differences_latex_table(
    data: DifferencesPublic, names: dict[int, str], width: TableWidth = "column"
) -> Table:
    """What fits a printed width. Page (a table* over both columns of a two-column paper):
    a column per parameter, both means, the difference with its interval [low, high], the
    relative difference and the verdict. Column (3.5 in): the base mean and the difference
    with the half-width of its interval (Welch's is symmetric), headers stacked. With several
    metrics, the rows come per metric under a line naming it with its unit. The CSV has every
    number."""
    one = len(data.units) == 1
    unit = printed_unit(next(iter(data.units.values()))) if one else None
    params = list(dict.fromkeys(p for r in data.data for p in r.values))
    several = len({r.experiment_id for r in data.data}) > 1
    page = width == "page"
    order = list(data.units)
    ranked = sorted(data.data, key=lambda r: order.index(r.metric))  # stable: rows per metric

    def in_unit(r: DifferenceRowPublic) -> list[Cell]:
        """The row's numbers in its metric's unit, each with that unit's decimals."""
        half = None if r.high is None else r.high - r.difference
        values = [r.other.mean, r.difference, r.low, r.high] if page else [r.difference, half]
        decimals = 0 if printed_unit(r.unit) == "ops/s" else 1
        return [Number(v, decimals) for v in [r.base.mean, *values]]

    rows = [
        [
            *([names.get(r.experiment_id, f"#{r.experiment_id}")] if several else []),
            *(format_level(r.values.get(p)) for p in params),
            *in_unit(r),
            r.relative_percent,
            r.verdict == "significant",
        ]
        for r in ranked
    ]
    # Several metrics: each section's title names the metric and its unit (the number headers
    # have none).
    sections = [with_unit(sentence_case(metric_title(r.metric)), r.unit) for r in ranked]
    # Short titles: the confidence level and what "Sig." and "±" mean are in the caption.
    means = f"Mean ({unit})" if unit else "Mean"
    diff = f"Difference ({unit})" if unit else "Difference"
    numbers = (
        [
            Column("base", None, 1, means),
            Column("compared", None, 1, means),
            Column("value", None, 1, diff),
            Column("low", None, 1, diff),
            Column("high", None, 1, diff),
        ]
        if page
        else [
            Column("Base", unit, 1),
            Column("Diff.", unit, 1),
            Column("±", unit, 1),
        ]
    )
    return Table(
        [
            *([Column("Experiment")] if several else []),
            *(Column(parameter_title(p)) for p in params),
            *numbers,
            Column("Rel.", "%", 1),
            Column("Sig."),
        ],
        rows,
        _caption(data, names, page),
        latex_label("tab", "compare", *(metric_title(m) for m in data.units)),
        wide=page,
        narrow=not page,
        sections=[] if one else sections,
    )


def differences_table(data: DifferencesPublic, names: dict[int, str]) -> Table:
    """Every number, for the CSV: one row per compared configuration and metric, both sides
    (n, mean, std), the difference and the relative difference with their intervals, and the
    verdict. With one metric (the page's case) its unit is in the headers, else each row
    names metric and unit."""
    level = f"{100 * data.level:g}% CI"
    one = len(data.units) == 1
    unit = printed_unit(next(iter(data.units.values()))) if one else None
    rows: list[list[Cell]] = [
        [
            names.get(r.experiment_id, f"#{r.experiment_id}"),
            levels_label(r.values),
            *([] if one else [metric_title(r.metric), printed_unit(r.unit)]),
            r.base.n,
            r.base.mean,
            r.base.std,
            r.other.n,
            r.other.mean,
            r.other.std,
            r.difference,
            r.low,
            r.high,
            r.relative_percent,
            r.relative_low,
            r.relative_high,
            VERDICT_TEXT[r.verdict],
        ]
        for r in data.data
    ]
    diff, rel = f"Difference, {level}", f"Relative, {level}"
    return Table(
        [
            Column("Experiment"),
            Column("Configuration"),
            *([] if one else [Column("Metric"), Column("Unit")]),
            Column("n", None, 0, "Base"),
            Column("mean", unit, 1, "Base"),
            Column("std", unit, 1, "Base"),
            Column("n", None, 0, "Compared"),
            Column("mean", unit, 1, "Compared"),
            Column("std", unit, 1, "Compared"),
            Column("value", unit, 1, diff),
            Column("low", unit, 1, diff),
            Column("high", unit, 1, diff),
            Column("value", "%", 1, rel),
            Column("low", "%", 1, rel),
            Column("high", "%", 1, rel),
            Column("Verdict"),
        ],
        rows,
        _caption(data, names),
        latex_label("tab", "compare", *(metric_title(m) for m in data.units)),
    )
