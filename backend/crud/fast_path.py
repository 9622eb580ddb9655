"""The aggregation's rules 1-3 as SQL, generated from the metric table.

`backend.results.aggregate` is where the rules are defined; this module writes the same rules
as PostgreSQL so that a 2,000-run experiment is combined where its rows are, and Python only
sees one row per run. Nothing here is written by hand per metric: every expression comes
from a `Metric`'s instance rule and column. The property tests in
`backend/tests/results/test_fast_path.py` keep both sides equal on random data.

Two per-source inputs, one combination:
- the stored stable-window summaries (rule 2 applied by the worker at ingest);
- window sums re-cut from the prefix-sum columns of the `fast` metrics (rules 1 and 2);
- `runs_sql` combines either per run (rule 3).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from sqlalchemy import TextClause, text

from backend.domain.metrics import FAST, METRICS, Metric, MetricName
from backend.domain.stored_columns import prefix_sums

# The runs whose results count: succeeded, or re-queued (re-run flagged) or failed again after
# an earlier attempt stored results (runs.results_attempt; the ORM form is
# backend.crud.results.has_results).
HAS_RESULTS_SQL = "(r.status = 'succeeded' OR r.results_attempt IS NOT NULL)"
_SUCCEEDED_RUNS = f"r.experiment_id = :experiment_id AND {HAS_RESULTS_SQL}"


def prefix_columns() -> list[tuple[MetricName, str, str | None]]:
    """(metric, sum column, weight column or None) of every fast metric, from the table (the
    columns backend.domain.stored_columns declares)."""
    out: list[tuple[MetricName, str, str | None]] = []
    for m in FAST:
        names = [name for name, _ in prefix_sums(m)]
        out.append((m.name, names[0], names[1] if len(names) > 1 else None))
    return out


def _finite(expr: str) -> str:
    return f"({expr} IS NOT NULL AND {expr} <> 'NaN'::float8 AND abs({expr}) <> 'Infinity'::float8)"


def _combine(m: Metric) -> str:
    """Rule 3 for one metric over one run's instance rows (`<name>__v`, `<name>__w`)."""
    v, w = f"{m.name}__v", f"{m.name}__w"
    known = _finite(v)
    if m.instances == "sum":  # a partial sum would understate the total: all or nothing
        return f"CASE WHEN count(*) FILTER (WHERE {known}) = count(*) THEN sum({v}) END"
    if m.instances == "weighted":
        return f"sum({v} * {w}) FILTER (WHERE {known}) / NULLIF(sum({w}) FILTER (WHERE {known}), 0)"
    return f"CASE WHEN count(*) FILTER (WHERE {known}) = 1 THEN max({v}) FILTER (WHERE {known}) END"


def _summary_reads(names: Sequence[MetricName]) -> str:
    """Rule 2 as the worker stored it: the summary column, weighted by the stored weight."""
    reads = []
    for name in names:
        m = METRICS[name]
        reads.append(f"s.{m.column}::float8 AS {name}__v")
        weight = "coalesce(s.weight, s.count)" if m.instances == "weighted" else "1"
        reads.append(f"{weight}::float8 AS {name}__w")
    return ", ".join(reads)


def _window_reads(names: Sequence[MetricName]) -> str:
    """Rule 2 from prefix sums: a rate is its window sum over the covered seconds, a time the
    completion-weighted sum over the completions with a defined time."""
    columns = {name: (col, weight) for name, col, weight in prefix_columns()}
    reads = []
    for name in names:
        col, weight = columns[name]
        total = f"({col}[b + 1] - {col}[a + 1])"
        if weight is None:
            reads.append(f"{total} / (b - a) AS {name}__v, 1::float8 AS {name}__w")
        else:
            w = f"coalesce({weight}[b + 1] - {weight}[a + 1], 0)"
            reads.append(f"CASE WHEN {w} > 0 THEN {total} / {w} END AS {name}__v, {w} AS {name}__w")
    return ", ".join(reads)


def _summaries_sql(names: Sequence[MetricName]) -> str:
    return f"""
        SELECT r.id AS run_id, r.configuration_id, r.repetition, {_summary_reads(names)}
        FROM run_summaries s JOIN runs r ON r.id = s.run_id
        WHERE {_SUCCEEDED_RUNS}
          AND s.request_type = CAST(:request_type AS request_type)
          AND s.source LIKE :source_pattern
    """


# Rule 1's second 0 per succeeded run: its earliest client start, else its earliest series.
_CLOCK = f"""
    SELECT x.run_id,
           coalesce(min(x.start_unix) FILTER (WHERE x.source LIKE 'client:%'),
                    min(x.start_unix)) AS t0
    FROM run_series x JOIN runs r ON r.id = x.run_id
    WHERE {_SUCCEEDED_RUNS}
    GROUP BY x.run_id
"""


def _window_sql(names: Sequence[MetricName]) -> str:
    """Rule 1 (second 0: the run's earliest client start, else its earliest series; each
    series shifted by its rounded offset) and rule 2 over [lo, hi) from the prefix sums."""
    wanted = set(names)
    cols = sorted(
        {"throughput_cumsum"}
        | {c for n, col, w in prefix_columns() if n in wanted for c in (col, w) if c is not None}
    )
    return f"""
        WITH clock AS ({_CLOCK}), placed AS (
            SELECT r.id AS run_id, r.configuration_id, r.repetition, {", ".join(cols)},
                   cardinality(x.throughput_cumsum) - 1 AS len,
                   floor(x.start_unix - c.t0 + 0.5)::int AS off
            FROM run_series x
            JOIN runs r ON r.id = x.run_id
            JOIN clock c ON c.run_id = x.run_id
            WHERE {_SUCCEEDED_RUNS}
              AND x.request_type = CAST(:request_type AS request_type)
              AND x.source LIKE :source_pattern
        ), bounded AS (
            SELECT *, greatest(0, least(:lo - off, len)) AS a,
                      greatest(0, least(:hi - off, len)) AS b
            FROM placed
        )
        SELECT run_id, configuration_id, repetition, {_window_reads(names)}
        FROM bounded WHERE b > a
    """


def _runs_sql(per_source: str, names: Sequence[MetricName]) -> TextClause:
    combined = ", ".join(f"{_combine(METRICS[n])} AS {n}" for n in names)
    return text(
        f"""
        WITH per_source AS ({per_source})
        SELECT run_id, configuration_id, repetition, {combined}
        FROM per_source
        GROUP BY run_id, configuration_id, repetition
        ORDER BY run_id
        """
    )


@cache
def summaries_runs_sql(names: tuple[MetricName, ...]) -> TextClause:
    """Per succeeded run: `names` over the stored stable window, instances combined.

    Parameters: experiment_id, request_type, source_pattern."""
    return _runs_sql(_summaries_sql(names), names)


@cache
def window_runs_sql(names: tuple[MetricName, ...]) -> TextClause:
    """Per succeeded run covering [lo, hi): the fast metrics `names`, instances combined.

    Parameters: experiment_id, request_type, source_pattern, lo, hi."""
    slow = [n for n in names if not METRICS[n].fast]
    if slow:
        raise ValueError(f"no prefix sums for {slow}")
    return _runs_sql(_window_sql(names), names)


WINDOW_HISTOGRAMS_SQL = text(
    f"""
    WITH clock AS ({_CLOCK}), placed AS (
        SELECT h.id, r.id AS run_id, r.configuration_id, r.repetition, h.windows,
               octet_length(h.cum) / (h.windows * h.width) AS item,
               floor(h.start_unix - c.t0 + 0.5)::int AS off,
               coalesce(CAST(:lo AS int), sw.window_start_s) AS lo,
               coalesce(CAST(:hi AS int), sw.window_end_s) AS hi
        FROM run_window_histograms h
        JOIN runs r ON r.id = h.run_id
        JOIN clock c ON c.run_id = h.run_id
        LEFT JOIN LATERAL (
            SELECT s.window_start_s, s.window_end_s FROM run_summaries s
            WHERE s.run_id = r.id ORDER BY s.id LIMIT 1
        ) sw ON true
        WHERE {_SUCCEEDED_RUNS}
          AND h.request_type = ANY(CAST(:request_types AS request_type[]))
          AND h.metric = CAST(:metric AS histogram_metric)
          AND h.source LIKE :source_pattern
          AND (CAST(:configuration_ids AS int[]) IS NULL
               OR r.configuration_id = ANY(CAST(:configuration_ids AS int[])))
    ), bounded AS (
        SELECT id, run_id, configuration_id, repetition, item,
               greatest(0, least(lo - off, windows)) AS a,
               greatest(0, least(hi - off, windows)) AS b
        FROM placed
    )
    SELECT b.run_id, b.configuration_id, b.repetition, h.sub_buckets, h.bucket_count,
           h.first_bucket, b.item,
           substring(h.cum FROM (b.b - 1) * h.width * b.item + 1 FOR h.width * b.item) AS upto_b,
           CASE WHEN b.a > 0
                THEN substring(h.cum FROM (b.a - 1) * h.width * b.item + 1
                               FOR h.width * b.item) END
               AS upto_a
    FROM bounded b JOIN run_window_histograms h ON h.id = b.id
    WHERE b.b > b.a
    ORDER BY b.run_id, h.id
    """
)
"""Rule 1 for per-window histograms: per succeeded run and matching middleware source, its
cumulative counts through the window's last second (upto_b) and through the second before its
first (upto_a; NULL from the series' start), `item` bytes per count. Their difference is the
window's histogram; only those two slices of each stored row are read (octet_length of the
uncompressed column needs no read either). lo/hi NULL: each run's stored stable window.

Parameters: experiment_id, request_types (those whose rows add up: "all" is every type),
metric, source_pattern, lo, hi, configuration_ids."""
