"""Recovery as a Celery beat task (every RECOVERY_EVERY_S, on the maintenance queue), plus one
pass when a worker starts: runs of dead workers are re-queued, queued runs whose message was
lost (Redis down at Start, or restarted) or is held by a dead worker (a countdown retry) are
re-sent, memcached servers kept for a next run that never came are stopped."""

import logging
import threading
from typing import Any

from celery.signals import worker_process_init, worker_ready

from backend.core.db import SessionLocal, engine
from backend.core.queue import MAINTENANCE_QUEUE, RECOVER_TASK, enqueue_runs, waiting_messages
from worker.runs.kept import reap_idle
from worker.runs.recovery import recover_orphaned_runs, resend_stuck_runs
from worker.runs.slo_search import advance_search, stalled_searches
from worker.tasks.base import instrumented_task

logger = logging.getLogger(__name__)


def recover_once() -> tuple[list[int], list[int]]:
    """One pass: (re-queued runs of dead workers, re-sent queued runs)."""
    with SessionLocal() as session:
        requeued = recover_orphaned_runs(session, enqueue_runs)
        resent = resend_stuck_runs(session, waiting_messages, enqueue_runs)
        reap_idle(session)  # kept servers no run took (worker died between runs, cancel)
        searches = stalled_searches(session)
    for experiment_id in searches:  # their step after the last probe may have been lost
        advance_search(experiment_id)
    if requeued or resent:
        logger.warning("recovery.done", extra={"requeued": requeued, "resent": resent})
    return requeued, resent


@instrumented_task(name=RECOVER_TASK, queue=MAINTENANCE_QUEUE, soft_time_limit=120, time_limit=180)
def recover() -> None:
    recover_once()


def _on_ready(**_: Any) -> None:
    # At start-up, at once (beat's first tick may be a while away); off the main thread.
    def run() -> None:
        try:
            recover_once()
        except Exception:
            logger.exception("recovery.failed")

    threading.Thread(target=run, name="mcscope-recovery-at-start", daemon=True).start()


def _on_fork(**_: Any) -> None:
    # A forked pool process must not share the parent's pooled database connections.
    engine.dispose(close=False)


worker_ready.connect(_on_ready)
worker_process_init.connect(_on_fork)
