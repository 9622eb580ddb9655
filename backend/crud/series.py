"""Stored per-second series and stable windows of one run (keyword-only, no HTTP errors)."""

from typing import Literal

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from backend.models import RequestType, RunSeries, RunSummary

SourceKind = Literal["client", "middleware"]


def list_run_series(
    *, session: Session, run_id: int, source: SourceKind, request_type: RequestType
) -> list[RunSeries]:
    """Every stored instance of one source kind and request type, by source name."""
    stmt = (
        select(RunSeries)
        .where(
            RunSeries.run_id == run_id,
            RunSeries.request_type == request_type,
            RunSeries.source.like(f"{source}:%"),
        )
        .order_by(RunSeries.source)
    )
    return list(session.scalars(stmt))


def read_load_start_unix(*, session: Session, run_id: int) -> float | None:
    """Second 0 of the run's clock: the earliest load generator start (any request type)."""
    stmt = select(func.min(RunSeries.start_unix)).where(
        RunSeries.run_id == run_id, RunSeries.source.like("client:%")
    )
    return session.scalar(stmt)


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
