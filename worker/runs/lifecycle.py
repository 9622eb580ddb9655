"""Run state transitions done with conditional UPDATEs, so a redelivered task is harmless.

Every write made while a run executes is guarded by (status running, attempt): a worker
that lost its run (re-queued after it was presumed dead) can no longer touch it.
"""

import logging
from datetime import datetime
from typing import Any

from sqlalchemy import func, select, update
from sqlalchemy.orm import Session

from backend.core.db import SessionLocal
from backend.core.processes import process_identity
from backend.domain.azure_lab_states import TESTBED_EXPIRED
from backend.models import Run, RunAttempt, RunStatus

logger = logging.getLogger(__name__)


def worker_identity() -> str:
    """host:pid of this process, so a worker on the same host can tell if the owner died."""
    return process_identity()


def _current(run_id: int, dispatch: int | None) -> Any:
    """A queued run whose current message is `dispatch` (None: a message without a number)."""
    cond = (Run.id == run_id) & (Run.status == RunStatus.QUEUED)
    return cond if dispatch is None else cond & (Run.dispatch == dispatch)


def hold(
    session: Session, run_id: int, dispatch: int | None, holder: str, due: datetime | None
) -> bool:
    """Record that `holder` received the run's current message and will run it at `due`
    (None: now), so recovery judges the message by that process (backend.crud.dispatch)."""
    done = session.execute(
        update(Run)
        .where(_current(run_id, dispatch))
        .values(
            held_by=holder,
            due_at=due if due is not None else func.now(),
            sent_at=func.coalesce(Run.sent_at, func.now()),
        )
    ).rowcount  # type: ignore[attr-defined]  # UPDATE gives a CursorResult
    session.commit()
    return bool(done)


def claim_run(session: Session, run_id: int, dispatch: int | None = None) -> int | None:
    """queued -> running, if `dispatch` is still the run's message (a stale one claims
    nothing). Returns the new attempt number, None when not claimed."""
    attempt = session.execute(
        update(Run)
        .where(_current(run_id, dispatch))
        .values(
            status=RunStatus.RUNNING,
            started_at=func.now(),
            heartbeat_at=func.now(),
            finished_at=None,
            error=None,
            attempt=Run.attempt + 1,
            worker=worker_identity(),
            held_by=None,
            due_at=None,
        )
        .returning(Run.attempt)
    ).scalar_one_or_none()
    session.commit()
    if attempt is None:
        logger.info("run.not_claimed", extra={"run_id": run_id})
    return attempt


def _mine(run_id: int, attempt: int) -> Any:
    return (Run.id == run_id) & (Run.status == RunStatus.RUNNING) & (Run.attempt == attempt)


def heartbeat(session: Session, run_id: int, attempt: int) -> bool | None:
    """Refresh the heartbeat. Returns cancel_requested, or None if the run is no longer ours."""
    cancel = session.execute(
        update(Run)
        .where(_mine(run_id, attempt))
        .values(heartbeat_at=func.now())
        .returning(Run.cancel_requested)
    ).scalar_one_or_none()
    # The attempt's own heartbeat: it says the worker lives even once the run is no longer
    # its own (worker.runs.attempts waits for such an attempt to end before the next run).
    session.execute(
        update(RunAttempt)
        .where(RunAttempt.run_id == run_id, RunAttempt.attempt == attempt)
        .values(heartbeat_at=func.clock_timestamp())
    )
    session.commit()
    return cancel


def record(session: Session, run_id: int, attempt: int, **values: Any) -> bool:
    """Save hosts / tool_versions / commands / artifact_dir as they become known."""
    done = session.execute(update(Run).where(_mine(run_id, attempt)).values(**values)).rowcount  # type: ignore[attr-defined]
    session.commit()
    return bool(done)


TESTBED_DELETED = "testbed deleted"
"""The error of a run ended because the user deleted its testbed while the run was on it (a
rehearsal's teardown, worker/rehearsal/lifecycle.py); TESTBED_EXPIRED is the janitor's."""
TESTBED_GONE = frozenset({TESTBED_EXPIRED, TESTBED_DELETED})


def ended_with_testbed(run_id: int) -> bool:
    """Whether someone else ended this run because its testbed is going away (read in a
    session of its own: the run's may hold work not yet committed)."""
    with SessionLocal() as session:
        error = session.scalar(
            select(Run.error).where(Run.id == run_id, Run.status == RunStatus.FAILED)
        )
    return error in TESTBED_GONE


def append_command(session: Session, run_id: int, attempt: int, entry: dict[str, Any]) -> None:
    commands = session.scalar(select(Run.commands).where(Run.id == run_id)) or []
    record(session, run_id, attempt, commands=[*commands, entry])


def note_waiting(session: Session, run_id: int, reason: str) -> None:
    """Say on a queued run why it does not start yet (shown with the run until it does)."""
    session.execute(
        update(Run).where(Run.id == run_id, Run.status == RunStatus.QUEUED).values(error=reason)
    )
    session.commit()


def finish_run(
    session: Session,
    run_id: int,
    status: RunStatus,
    error: str | None = None,
    attempt: int | None = None,
) -> bool:
    """running -> a final state. A run someone else already finished is left alone."""
    cond = Run.id == run_id
    cond &= Run.status == RunStatus.RUNNING
    if attempt is not None:
        cond &= Run.attempt == attempt
    done = session.execute(
        update(Run).where(cond).values(status=status, error=error, finished_at=func.now())
    ).rowcount  # type: ignore[attr-defined]  # UPDATE gives a CursorResult
    session.commit()
    logger.info("run.finished", extra={"run_id": run_id, "status": status.value, "error": error})
    return bool(done)


def requeue_run(session: Session, run_id: int, attempt: int, reason: str) -> bool:
    """running -> queued (to be retried); the next claim increments the attempt. The task
    sends the retry's message next (same dispatch number): the run counts as sent."""
    done = session.execute(
        update(Run)
        .where((Run.id == run_id) & (Run.status == RunStatus.RUNNING) & (Run.attempt == attempt))
        .values(
            status=RunStatus.QUEUED,
            error=reason,
            started_at=None,
            heartbeat_at=None,
            sent_at=func.now(),
            held_by=None,
            due_at=None,
        )
    ).rowcount  # type: ignore[attr-defined]
    session.commit()
    logger.info("run.requeued", extra={"run_id": run_id, "reason": reason})
    return bool(done)


def save_phase_timings(
    session: Session, run_id: int, attempt: int, timings: dict[str, float]
) -> None:
    """Record how long each phase of this attempt took, whatever its outcome."""
    session.rollback()  # a failed transaction must not block this write
    session.execute(
        update(Run).where(Run.id == run_id, Run.attempt == attempt).values(phase_timings=timings)
    )
    session.commit()
