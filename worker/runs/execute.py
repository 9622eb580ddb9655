"""Executing one run end to end: lock the testbed, claim, run the pipeline, record the outcome.

Returns how long to wait before retrying (testbed busy, transient SSH trouble), or None.
"""

import logging
import traceback

from celery.exceptions import SoftTimeLimitExceeded
from sqlalchemy.orm import Session

from backend.core.db import SessionLocal
from backend.models import Experiment, Run, RunStatus
from worker.drivers.errors import DriverError, TransientDriverError
from worker.live import publish
from worker.parsers import ParseError
from worker.runs import attempts, lifecycle
from worker.runs.heartbeat import Heartbeat, LockLost, RunCancelled, RunLost
from worker.runs.lock import testbed_lock
from worker.runs.pipeline import RunExecution
from worker.runs.plan import PlanError
from worker.runs.testbed import load_testbed

logger = logging.getLogger(__name__)

BUSY_RETRY_S = 5.0
TRANSIENT_RETRY_S = 15.0
MAX_ATTEMPTS = 3


def execute_run(run_id: int, dispatch: int | None = None) -> float | None:
    """The body of the run task for the run's message number `dispatch` (None: a message
    without one). A missing run returns quietly (deleted experiment); so does a message that
    is no longer the run's (re-sent by recovery or Start meanwhile): nothing retries it."""
    with SessionLocal() as session:
        run = session.get(Run, run_id)
        if run is None or run.status != RunStatus.QUEUED:
            logger.info("run.skipped", extra={"run_id": run_id})
            return None
        if dispatch is not None and run.dispatch != dispatch:
            logger.info("run.stale_message", extra={"run_id": run_id, "dispatch": dispatch})
            return None
        experiment = session.get(Experiment, run.experiment_id)
        assert experiment is not None
        layout = load_testbed(session, experiment.testbed_id)
        with testbed_lock(layout.lock_key) as lock:
            if not lock.acquired:
                logger.info("run.testbed_busy", extra={"run_id": run_id, "testbed": layout.name})
                return BUSY_RETRY_S
            try:  # the lock is not enough: earlier attempts' processes must be gone
                attempts.clear_testbed(session, layout)
            except attempts.TestbedBusy as exc:
                logger.warning("run.testbed_busy", extra={"run_id": run_id, "reason": str(exc)})
                lifecycle.note_waiting(session, run_id, f"waiting: {exc}")
                return BUSY_RETRY_S
            attempt = lifecycle.claim_run(session, run_id, dispatch)
            if attempt is None:
                return None
            session.refresh(run)
            publish.run_state(experiment.id, run_id, "running")
            logger.info("run.started", extra={"run_id": run_id, "attempt": attempt})
            # The heartbeat beats from the claim to the final state, through stop/fetch/parse.
            with Heartbeat(run_id, attempt, lock) as heartbeat:
                ex = RunExecution(session, run, experiment, layout, attempt, heartbeat)
                attempts.begin(ex)
                try:
                    return _attempt(session, ex)
                finally:
                    with ex.phase("stop"):
                        attempts.end(ex)
                    lifecycle.save_phase_timings(session, run_id, attempt, ex.phase_timings())


def _finish(ex: RunExecution, status: RunStatus, error: str | None) -> None:
    if lifecycle.finish_run(ex.session, ex.run_id, status, error, attempt=ex.attempt):
        publish.run_state(ex.experiment.id, ex.run_id, status.value, error)


def _retry_or_fail(session: Session, ex: RunExecution, reason: str) -> float | None:
    """Transient trouble: re-queue for a later attempt, or fail past MAX_ATTEMPTS."""
    session.rollback()
    if ex.attempt < MAX_ATTEMPTS:
        lifecycle.requeue_run(session, ex.run_id, ex.attempt, f"retrying: {reason}")
        publish.run_state(ex.experiment.id, ex.run_id, "queued", reason)
        return TRANSIENT_RETRY_S * ex.attempt
    _finish(ex, RunStatus.FAILED, f"{reason} (gave up after {ex.attempt} attempts)")
    return None


def _attempt(session: Session, ex: RunExecution) -> float | None:
    try:
        stored = ex.execute()
    except RunLost:
        logger.warning("run.lost", extra={"run_id": ex.run_id, "attempt": ex.attempt})
        return None
    except RunCancelled:
        _finish(ex, RunStatus.CANCELLED, "cancelled by request; raw files kept")
        return None
    except (TransientDriverError, LockLost, attempts.TestbedDisturbed) as exc:
        return _retry_or_fail(session, ex, str(exc))
    except SoftTimeLimitExceeded:
        session.rollback()
        _finish(ex, RunStatus.FAILED, "stopped: the run task exceeded its time limit")
        return None
    except (DriverError, ParseError, PlanError, LookupError) as exc:
        session.rollback()
        _finish(ex, RunStatus.FAILED, str(exc))
        return None
    except Exception as exc:  # a bug: fail this run with the trace, let the others go on
        session.rollback()
        logger.exception("run.crashed", extra={"run_id": ex.run_id})
        _finish(ex, RunStatus.FAILED, f"internal error: {exc!r}\n{traceback.format_exc()[-2000:]}")
        return None
    if stored:
        publish.run_state(ex.experiment.id, ex.run_id, RunStatus.SUCCEEDED.value)
    return None
