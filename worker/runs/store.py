"""Storing a run's results and marking it succeeded in one transaction, idempotently.

Rows of the run are deleted and re-inserted, and the status change is guarded by the
attempt: a redelivered task or a presumed-dead worker can never store a run twice.
"""

from sqlalchemy import delete, func, update
from sqlalchemy.orm import Session

from backend.models import (
    Run,
    RunHistogram,
    RunSeries,
    RunStatus,
    RunSummary,
    RunWindowHistogram,
)
from worker.runs.summarize import ResultRows


def store_results(session: Session, run_id: int, attempt: int, rows: ResultRows) -> bool:
    """True when stored and the run marked succeeded; False (nothing written) if not ours."""
    try:
        for model in (RunSeries, RunSummary, RunHistogram, RunWindowHistogram):
            session.execute(delete(model).where(model.run_id == run_id))
        session.add_all(RunSeries(run_id=run_id, **r) for r in rows.series)
        session.add_all(RunSummary(run_id=run_id, **r) for r in rows.summaries)
        session.add_all(RunHistogram(run_id=run_id, **r) for r in rows.histograms)
        session.add_all(RunWindowHistogram(run_id=run_id, **r) for r in rows.window_histograms)
        session.flush()
        done = session.execute(
            update(Run)
            .where(Run.id == run_id, Run.status == RunStatus.RUNNING, Run.attempt == attempt)
            .values(status=RunStatus.SUCCEEDED, error=None, finished_at=func.now())
        ).rowcount  # type: ignore[attr-defined]
        if not done:
            session.rollback()
            return False
        session.commit()
        return True
    except Exception:
        session.rollback()
        raise
