"""Storing a run's results and marking it succeeded in one transaction, idempotently.

Rows of the run are deleted and re-inserted, and the status change is guarded by the
attempt: a redelivered task or a presumed-dead worker can never store a run twice. The
attempt's row keeps its outcome (window means and quality flags), so a later attempt that
replaces these results (re-run flagged) leaves the older ones visible on the run page.
"""

import math
from typing import Any

from sqlalchemy import delete, func, update
from sqlalchemy.orm import Session

from backend.models import (
    RequestType,
    Run,
    RunAttempt,
    RunHistogram,
    RunSeries,
    RunStatus,
    RunSummary,
    RunWindowHistogram,
)
from worker.runs.summarize import ResultRows


def attempt_outcome(rows: ResultRows, quality: dict[str, Any] | None) -> dict[str, Any]:
    """The load generators' window means (instances combined: throughput summed, response
    time completion-weighted) and the attempt's flags."""
    clients = [
        s
        for s in rows.summaries
        if s["source"].startswith("client:") and s["request_type"] == RequestType.ALL
    ]
    timed = [
        (s["response_time_us"], s.get("weight") or 0.0)
        for s in clients
        if not math.isnan(s["response_time_us"])
    ]
    weight = sum(w for _, w in timed)
    return {
        "throughput_per_s": sum(s["throughput"] for s in clients) if clients else None,
        "response_time_us": sum(r * w for r, w in timed) / weight if weight > 0 else None,
        "flags": (quality or {}).get("flags", []),
    }


def store_results(
    session: Session,
    run_id: int,
    attempt: int,
    rows: ResultRows,
    quality: dict[str, Any] | None = None,
) -> bool:
    """True when stored and the run marked succeeded; False (nothing written) if not ours.
    `quality`: runs.quality computed at ingest (worker.runs.quality)."""
    try:
        if not write_results(session, run_id, attempt, rows, quality):
            session.rollback()
            return False
        session.commit()
        return True
    except Exception:
        session.rollback()
        raise


def write_results(
    session: Session,
    run_id: int,
    attempt: int,
    rows: ResultRows,
    quality: dict[str, Any] | None = None,
) -> bool:
    """store_results without the commit, for a caller that stores many runs in one
    transaction (an import, worker/imports): False when the run is not ours (the caller
    rolls back)."""
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
        .values(
            status=RunStatus.SUCCEEDED,
            error=None,
            finished_at=func.now(),
            quality=quality,
            results_attempt=attempt,
        )
    ).rowcount  # type: ignore[attr-defined]
    if not done:
        return False
    session.execute(
        update(RunAttempt)
        .where(RunAttempt.run_id == run_id, RunAttempt.attempt == attempt)
        .values(outcome=attempt_outcome(rows, quality))
    )
    return True
