"""The compare page's difference table as a report table (CSV and booktabs LaTeX).

The rows are `/compare/differences`' own: the statistics are computed there once; this only
lays them out, with units in the headers, the confidence level in the group titles, and a
caption naming the experiments, the base and the metric.
"""

from backend.analysis.difference import Verdict
from backend.figures.labels import levels_label, metric_title, printed_unit
from backend.schemas.compare import DifferencesPublic
from backend.tables.table import Column, Table, latex_label

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


def differences_table(data: DifferencesPublic, names: dict[int, str]) -> Table:
    """One row per compared configuration and metric: both sides (n, mean, std), the
    difference and the relative difference with their intervals, and the verdict. With one
    metric (the page's case) its unit is in the headers, else each row names metric and unit."""
    level = f"{100 * data.level:g}% CI"
    one = len(data.units) == 1
    unit = printed_unit(next(iter(data.units.values()))) if one else None
    rows = [
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
    metrics = [metric_title(m) for m in data.units]
    experiments = sorted({names.get(r.experiment_id, "?") for r in data.data})
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
        f"{', '.join(metrics).capitalize()} of {', '.join(experiments) or 'no experiment'} "
        f"compared with {_base_text(data, names)}: mean and standard deviation over "
        f"repetitions; differences with {level.removesuffix(' CI')} Welch t intervals "
        f"(relative: Fieller's), significant when the interval excludes zero.",
        latex_label("tab", "compare", *metrics),
    )
