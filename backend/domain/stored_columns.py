"""The stored columns of each metric, from the metric table (backend/domain/metrics.py).

A metric with per-second values has a float8[] column in run_series and, if `fast`, the
prefix sums PostgreSQL computes from it (migration 0003: `<column>_cumsum` for a summed
metric, `<column>_wcumsum` and `<column>_weight_cumsum` for a completion-weighted one, see
backend/crud/fast_path.py); every metric has a float column in run_summaries with its
stable-window value. The ORM (backend/models/results.py) builds its metric columns from this
list, and a migration that adds a metric adds exactly `stored_columns(METRICS[name])`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from backend.domain.metrics import METRICS, Metric

StoredTable = Literal["run_series", "run_summaries"]

REQUIRED: frozenset[str] = frozenset({"throughput_per_s", "response_time_us"})
"""Metrics every request source has (the series' length and the weight): NOT NULL columns."""


@dataclass(frozen=True)
class StoredColumn:
    """One column of a metric: float8[] in run_series, float8 in run_summaries; `computed`
    is the PostgreSQL expression of a generated (persisted) prefix-sum column."""

    table: StoredTable
    name: str
    metric: str
    computed: str | None = None
    nullable: bool = True

    @property
    def array(self) -> bool:
        return self.table == "run_series"

    @property
    def storage(self) -> str | None:
        """PostgreSQL STORAGE of an array (migration 0001): prefix sums in the row (MAIN, so
        re-windowing reads no TOAST), raw per-second arrays out of line uncompressed
        (EXTERNAL: measured noise does not compress)."""
        if not self.array:
            return None
        return "MAIN" if self.computed is not None else "EXTERNAL"


def prefix_sums(m: Metric) -> tuple[tuple[str, str], ...]:
    """(column, expression) of the metric's prefix sums; none unless `fast`."""
    if not m.fast:
        return ()
    c = m.column
    if m.instances == "weighted":
        return (
            (f"{c}_wcumsum", f"mcscope_weighted_cumsum(throughput, {c})"),
            (f"{c}_weight_cumsum", f"mcscope_weight_cumsum(throughput, {c})"),
        )
    return ((f"{c}_cumsum", f"mcscope_cumsum({c})"),)


def stored_columns(m: Metric) -> tuple[StoredColumn, ...]:
    """Every column that stores metric `m`: series, its prefix sums, the summary."""
    nullable = m.name not in REQUIRED
    out: list[StoredColumn] = []
    if m.per_second:
        out.append(StoredColumn("run_series", m.column, m.name, nullable=nullable))
        # Prefix sums are generated columns, nullable as the migrations made them (0003).
        out += [StoredColumn("run_series", name, m.name, expr) for name, expr in prefix_sums(m)]
    out.append(StoredColumn("run_summaries", m.column, m.name, nullable=nullable))
    return tuple(out)


def all_stored_columns(table: StoredTable) -> tuple[StoredColumn, ...]:
    """The metric columns of one table, in metric table order."""
    return tuple(c for m in METRICS.values() for c in stored_columns(m) if c.table == table)
