"""Stored-result reads for the results service (keyword-only, no HTTP errors, no arithmetic).

Three ways in, all per (run, source) so that `backend.results.aggregate` combines them:
stored stable-window summaries, raw per-second series, and the SQL fast path that re-cuts any
window from the prefix-sum columns of the metric table's `fast` metrics.
"""

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from sqlalchemy import Select, TextClause, select, text
from sqlalchemy.orm import Session

from backend.models import (
    Configuration,
    HistogramMetric,
    RequestType,
    Run,
    RunHistogram,
    RunSeries,
    RunStatus,
    RunSummary,
)
from backend.results.metrics import FAST, METRICS, SourceKind


@dataclass(frozen=True)
class RunRef:
    """Which run a stored row belongs to."""

    run_id: int
    configuration_id: int
    repetition: int


def read_configurations(*, session: Session, experiment_id: int) -> list[Configuration]:
    """The experiment's grid points in index order."""
    stmt = (
        select(Configuration)
        .where(Configuration.experiment_id == experiment_id)
        .order_by(Configuration.index)
    )
    return list(session.scalars(stmt))


def _succeeded(experiment_id: int) -> list[object]:
    return [Run.experiment_id == experiment_id, Run.status == RunStatus.SUCCEEDED]


def read_summaries(
    *, session: Session, experiment_id: int, source: SourceKind, request_type: RequestType
) -> list[tuple[RunRef, Any]]:
    """Stable-window summaries of every succeeded run, one per run x matching source.

    Plain rows of the columns the aggregation reads (attribute access by column name), not
    ORM objects: at 2,000 runs x 10 sources building entities dominated the query.
    """
    cols = ["source", "window_start_s", "window_end_s", "weight", "count"]
    cols += [m.column for m in METRICS.values() if m.column not in cols]
    stmt = (
        select(
            Run.id, Run.configuration_id, Run.repetition, *(getattr(RunSummary, c) for c in cols)
        )
        .join(RunSummary, RunSummary.run_id == Run.id)
        .where(
            *_succeeded(experiment_id),  # type: ignore[arg-type]
            RunSummary.request_type == request_type,
            RunSummary.source.like(f"{source}:%"),
        )
        .order_by(Run.id, RunSummary.source)
    )
    return [(RunRef(row[0], row[1], row[2]), row) for row in session.execute(stmt)]


@dataclass(frozen=True)
class StoredSeries:
    """Some per-second columns of one stored series (only those asked for are read)."""

    ref: RunRef
    source: str
    start_unix: float
    values: dict[str, list[float] | None]


def read_series(
    *,
    session: Session,
    experiment_id: int,
    request_type: RequestType,
    columns: Sequence[str],
) -> list[StoredSeries]:
    """Per-second `columns` of every succeeded run's series (all sources: the clock needs
    the clients). The prefix-sum columns are never loaded."""
    cols = [getattr(RunSeries, c) for c in columns]
    stmt = (
        select(
            Run.id,
            Run.configuration_id,
            Run.repetition,
            RunSeries.source,
            RunSeries.start_unix,
            *cols,
        )
        .join(RunSeries, RunSeries.run_id == Run.id)
        .where(*_succeeded(experiment_id), RunSeries.request_type == request_type)  # type: ignore[arg-type]
        .order_by(Run.id, RunSeries.source)
    )
    return [
        StoredSeries(RunRef(r[0], r[1], r[2]), r[3], r[4], dict(zip(columns, r[5:], strict=True)))
        for r in session.execute(stmt)
    ]


def read_run_series(*, session: Session, run_id: int, request_type: RequestType) -> list[RunSeries]:
    """Every stored series of one run and request type, whatever its status, by source."""
    stmt = (
        select(RunSeries)
        .where(RunSeries.run_id == run_id, RunSeries.request_type == request_type)
        .order_by(RunSeries.source)
    )
    return list(session.scalars(stmt))


def read_clock_start(*, session: Session, run_id: int) -> float | None:
    """The earliest load generator start of a run (any request type): its second 0."""
    stmt = select(RunSeries.start_unix).where(
        RunSeries.run_id == run_id, RunSeries.source.like("client:%")
    )
    starts = list(session.scalars(stmt))
    return min(starts) if starts else None


def read_stored_window(*, session: Session, run_id: int) -> tuple[int, int] | None:
    """The stable window the run was summarised over (the same for all its sources)."""
    stmt = (
        select(RunSummary.window_start_s, RunSummary.window_end_s)
        .where(RunSummary.run_id == run_id)
        .order_by(RunSummary.id)
        .limit(1)
    )
    row = session.execute(stmt).first()
    return (row[0], row[1]) if row else None


# ------------------------------------------------------------------------- fast path


@dataclass(frozen=True)
class WindowSums:
    """Window sums of one source from the prefix sums (aggregate.from_window_sums reads them).

    sums: per fast metric, sum over the covered seconds (x * value for weighted metrics);
    weights: per weighted fast metric, the sum of x over seconds with a defined value.
    """

    ref: RunRef
    source: str
    seconds: int
    sums: dict[str, float | None]
    weights: dict[str, float | None]


def prefix_columns() -> list[tuple[str, str, str | None]]:
    """(metric, sum column, weight column or None) of every fast metric, from the table."""
    out: list[tuple[str, str, str | None]] = []
    for m in FAST:
        if m.instances == "weighted":
            out.append((m.name, f"{m.column}_wcumsum", f"{m.column}_weight_cumsum"))
        else:
            out.append((m.name, f"{m.column}_cumsum", None))
    return out


@cache
def _fast_sql() -> TextClause:
    """Per (run, source) window sums, generated from the metric table's fast metrics.

    The clock is aggregate.py's rule 1: second 0 is the run's earliest client start (else its
    earliest series), each series shifted by its rounded start offset; [a, b) are the
    source's own covered seconds.
    """
    reads = []
    for name, col, weight in prefix_columns():
        reads.append(f"{col}[b + 1] - {col}[a + 1] AS {name}__sum")
        if weight:
            reads.append(f"{weight}[b + 1] - {weight}[a + 1] AS {name}__weight")
    names = [c for _, col, weight in prefix_columns() for c in (col, weight) if c is not None]
    cols = ", ".join(sorted(set(names)))
    return text(
        f"""
        WITH clock AS (
            SELECT x.run_id,
                   coalesce(min(x.start_unix) FILTER (WHERE x.source LIKE 'client:%'),
                            min(x.start_unix)) AS t0
            FROM run_series x JOIN runs r ON r.id = x.run_id
            WHERE r.experiment_id = :experiment_id AND r.status = 'succeeded'
            GROUP BY x.run_id
        ), placed AS (
            SELECT r.id AS run_id, r.configuration_id, r.repetition, x.source, {cols},
                   cardinality(x.throughput_cumsum) - 1 AS len,
                   floor(x.start_unix - c.t0 + 0.5)::int AS off
            FROM run_series x
            JOIN runs r ON r.id = x.run_id
            JOIN clock c ON c.run_id = x.run_id
            WHERE r.experiment_id = :experiment_id AND r.status = 'succeeded'
              AND x.request_type = CAST(:request_type AS request_type)
              AND x.source LIKE :source_pattern
        ), bounded AS (
            SELECT *, greatest(0, least(:lo - off, len)) AS a,
                      greatest(0, least(:hi - off, len)) AS b
            FROM placed
        )
        SELECT run_id, configuration_id, repetition, source, b - a AS seconds,
               {", ".join(reads)}
        FROM bounded WHERE b > a
        ORDER BY run_id, source
        """
    )


def read_window_sums(
    *,
    session: Session,
    experiment_id: int,
    source: SourceKind,
    request_type: RequestType,
    start_s: int,
    end_s: int,
) -> list[WindowSums]:
    """Window sums of every succeeded run x matching source that covers [start_s, end_s)."""
    rows = session.execute(
        _fast_sql(),
        {
            "experiment_id": experiment_id,
            "request_type": request_type.value,
            "source_pattern": f"{source}:%",
            "lo": start_s,
            "hi": end_s,
        },
    ).mappings()
    out = []
    for row in rows:
        sums: dict[str, float | None] = {}
        weights: dict[str, float | None] = {}
        for name, _, weight in prefix_columns():
            sums[name] = row[f"{name}__sum"]
            if weight:
                weights[name] = row[f"{name}__weight"]
        ref = RunRef(row["run_id"], row["configuration_id"], row["repetition"])
        out.append(WindowSums(ref, row["source"], row["seconds"], sums, weights))
    return out


# ------------------------------------------------------------------------ histograms


def read_histograms(
    *,
    session: Session,
    experiment_id: int,
    source: SourceKind,
    request_type: RequestType,
    metric: HistogramMetric,
    configuration_ids: Sequence[int] | None = None,
) -> list[tuple[RunRef, RunHistogram]]:
    """Stored histograms of succeeded runs (optionally of some configurations only)."""
    stmt: Select[tuple[int, int, int, RunHistogram]] = (
        select(Run.id, Run.configuration_id, Run.repetition, RunHistogram)
        .join(Run, Run.id == RunHistogram.run_id)
        .where(
            *_succeeded(experiment_id),  # type: ignore[arg-type]
            RunHistogram.request_type == request_type,
            RunHistogram.metric == metric,
            RunHistogram.source.like(f"{source}:%"),
        )
        .order_by(RunHistogram.id)
    )
    if configuration_ids is not None:
        stmt = stmt.where(Run.configuration_id.in_(configuration_ids))
    return [(RunRef(r, c, rep), h) for r, c, rep, h in session.execute(stmt)]
