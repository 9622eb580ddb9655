"""The summary table: the results page's throughput and response time per configuration."""

from __future__ import annotations

from typing import Any

from backend.domain.labels import format_level
from backend.domain.metrics import METRIC_UNITS
from backend.figures.data import load_results
from backend.figures.labels import printed_unit
from backend.tables.registry import ExperimentInfo, TableQuery, factor_columns, register
from backend.tables.table import Column, Table


@register("summary", "Summary", load_results)
def summary(data: Any, info: ExperimentInfo, q: TableQuery) -> Table:
    """Mean and standard deviation of throughput and response time per configuration."""
    factors = list(info.factors)
    tp, rt = "Throughput", "Response time"
    tp_unit, rt_unit = (
        printed_unit(METRIC_UNITS[m]) for m in ("throughput_per_s", "response_time_us")
    )
    columns = [
        *factor_columns(info),
        Column("Reps", decimals=0),
        Column("mean", tp_unit, 0, tp),
        Column("std", tp_unit, 0, tp),
        Column("mean", rt_unit, 1, rt),
        Column("std", rt_unit, 1, rt),
    ]
    rows = [
        [
            *(format_level(r.values.get(f)) for f in factors),
            r.repetitions,
            r.mean("throughput_per_s"),
            r.std("throughput_per_s"),
            r.mean("response_time_us"),
            r.std("response_time_us"),
        ]
        for r in data.data
    ]
    window = (
        f"seconds {q.window_start_s} to {q.window_end_s} of each run"
        if q.window_start_s is not None
        else "each run's stable window"
    )
    return Table(
        columns,
        rows,
        f"Results of experiment {info.name} ({q.source} side, {q.request_type.value} "
        f"requests, {window}), {info.varied()}: mean and standard deviation over repetitions.",
        info.label("summary"),
    )
