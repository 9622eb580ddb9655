"""Stored-result reads for the results service (keyword-only, no HTTP errors, no arithmetic).

Three ways in: stored stable-window summaries and raw per-second series, per (run, source), for
`backend.results.aggregate` to combine; and per run, the generated SQL of
`backend.crud.fast_path` (the same rules in PostgreSQL) over the summaries or re-cut to any
window from the prefix-sum columns of the metric table's `fast` metrics.
"""

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt
from sqlalchemy import ColumnElement, Select, TextClause, or_, select
from sqlalchemy.orm import Session
from sqlalchemy.orm.attributes import set_committed_value

from backend.crud import fast_path
from backend.domain.grid import in_order
from backend.domain.metrics import METRICS, MetricName, SourceKind, source_prefix
from backend.models import (
    Configuration,
    Experiment,
    HistogramMetric,
    RequestType,
    Run,
    RunHistogram,
    RunSeries,
    RunStatus,
    RunSummary,
)


@dataclass(frozen=True)
class WindowSlices:
    """One source's cumulative bucket counts at both ends of a window (see RunWindowHistogram).

    The window's counts of buckets first_bucket, first_bucket + 1, ... are upto_b - upto_a
    (little-endian ints of `item` bytes; upto_a None: nothing before the window).
    """

    sub_buckets: int
    bucket_count: int
    first_bucket: int
    item: int
    upto_b: bytes
    upto_a: bytes | None

    def counts(self) -> npt.NDArray[np.int64]:
        """The window's counts of buckets first_bucket, first_bucket + 1, ..."""
        dtype = f"<i{self.item}"
        c = np.frombuffer(self.upto_b, dtype=dtype).astype(np.int64)
        if self.upto_a is not None:
            c -= np.frombuffer(self.upto_a, dtype=dtype)
        return c


@dataclass(frozen=True)
class RunRef:
    """Which run a stored row belongs to."""

    run_id: int
    configuration_id: int
    repetition: int


def read_configurations(*, session: Session, experiment_id: int) -> list[Configuration]:
    """The experiment's grid points in index order, values in its factor order."""
    stmt = (
        select(Configuration)
        .where(Configuration.experiment_id == experiment_id)
        .order_by(Configuration.index)
    )
    exp = session.get(Experiment, experiment_id)
    return in_factor_order(list(session.scalars(stmt)), list(exp.factors) if exp else [])


def in_factor_order(configs: list[Configuration], order: list[str]) -> list[Configuration]:
    """The rows with their values' keys in the experiment's factor order (PostgreSQL sorts
    JSONB keys; the first factor is the default x of every view). Set as loaded, so nothing
    is written back."""
    for c in configs:
        set_committed_value(c, "values", in_order(c.values, order))
    return configs


def has_results() -> ColumnElement[bool]:
    """Runs whose results count (fast_path.HAS_RESULTS_SQL): succeeded, or with results of an
    earlier attempt while a re-run is queued, running or failed."""
    return or_(Run.status == RunStatus.SUCCEEDED, Run.results_attempt.is_not(None))


def _succeeded(experiment_id: int) -> list[object]:
    return [Run.experiment_id == experiment_id, has_results()]


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


def _run_rows(
    session: Session, stmt: TextClause, names: Sequence[MetricName], params: dict[str, Any]
) -> list[tuple[RunRef, dict[str, float | None]]]:
    rows = session.execute(stmt, params).all()
    return [(RunRef(r[0], r[1], r[2]), dict(zip(names, r[3:], strict=True))) for r in rows]


def read_run_values(
    *,
    session: Session,
    experiment_id: int,
    source: SourceKind,
    request_type: RequestType,
    names: Sequence[MetricName],
    window: tuple[int, int] | None = None,
    role: str | None = None,
    source_name: str | None = None,
) -> list[tuple[RunRef, dict[str, float | None]]]:
    """Per succeeded run with a matching source, `names` with its instances combined, by the
    generated SQL of `backend.crud.fast_path`: over the stored stable window, or re-cut to
    `window` = (start_s, end_s) from the prefix sums (fast metrics only). `role` keeps one
    role's processes (see source_prefix); `source_name` one source only (e.g.
    "net:<host>:<interface>")."""
    key = tuple(names)
    pattern = (
        f"{source_prefix(source, role)}%"
        if source_name is None
        else source_name.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    )
    params: dict[str, Any] = {
        "experiment_id": experiment_id,
        "request_type": request_type.value,
        "source_pattern": pattern,
    }
    if window is None:
        return _run_rows(session, fast_path.summaries_runs_sql(key), names, params)
    params["lo"], params["hi"] = window
    return _run_rows(session, fast_path.window_runs_sql(key), names, params)


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


def read_window_histogram_slices(
    *,
    session: Session,
    experiment_id: int,
    source: SourceKind,
    request_type: RequestType,
    metric: HistogramMetric,
    window: tuple[int, int] | None,
    configuration_ids: Sequence[int] | None = None,
) -> list[tuple[RunRef, WindowSlices]]:
    """Per succeeded run, source and stored request type: the window's two slices.

    window None: each run's stored stable window. Sources without a second in the window are
    absent. Request type "all" gives the rows of every type (they add up to it)."""
    types = [t.value for t in RequestType if t != RequestType.ALL]
    lo, hi = window if window is not None else (None, None)
    rows = session.execute(
        fast_path.WINDOW_HISTOGRAMS_SQL,
        {
            "experiment_id": experiment_id,
            "request_types": types if request_type == RequestType.ALL else [request_type.value],
            "metric": metric.value,
            "source_pattern": f"{source}:%",
            "lo": lo,
            "hi": hi,
            "configuration_ids": None if configuration_ids is None else list(configuration_ids),
        },
    ).all()
    return [
        (
            RunRef(r[0], r[1], r[2]),
            WindowSlices(r[3], r[4], r[5], r[6], bytes(r[7]), _opt_bytes(r[8])),
        )
        for r in rows
    ]


def _opt_bytes(value: Any) -> bytes | None:
    return None if value is None else bytes(value)


def read_process_hosts(*, session: Session, experiment_id: int) -> dict[str, str]:
    """ "process:<source>" -> the host it ran on, from the commands the succeeded runs record
    (the monitor's process sources name the role and index, not the host)."""
    out: dict[str, str] = {}
    for commands in session.scalars(select(Run.commands).where(*_succeeded(experiment_id))):  # type: ignore[arg-type]
        for entry in commands or []:
            if "source" in entry and "host" in entry:
                out.setdefault(f"process:{entry['source']}", str(entry["host"]))
    return out


def read_source_names(*, session: Session, experiment_id: int, source: SourceKind) -> list[str]:
    """The distinct stored source names of a side over the succeeded runs (e.g. every
    "net:<host>:<interface>")."""
    stmt = (
        select(RunSummary.source)
        .join(Run, Run.id == RunSummary.run_id)
        .where(*_succeeded(experiment_id), RunSummary.source.like(f"{source}:%"))  # type: ignore[arg-type]
        .distinct()
        .order_by(RunSummary.source)
    )
    return list(session.scalars(stmt))
