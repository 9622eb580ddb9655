"""Worker start-up hooks: recover runs of dead workers now and then every RECOVERY_EVERY_S."""

import logging
import threading
from typing import Any

from celery.signals import worker_process_init, worker_ready, worker_shutdown

from backend.core.db import SessionLocal, engine
from backend.core.queue import enqueue_runs
from worker.runs.recovery import recover_orphaned_runs

logger = logging.getLogger(__name__)

RECOVERY_EVERY_S = 20.0
_stop = threading.Event()


def recover_once() -> list[int]:
    with SessionLocal() as session:
        return recover_orphaned_runs(session, enqueue_runs)


def _loop() -> None:
    while True:
        try:
            ids = recover_once()
            if ids:
                logger.warning("recovery.requeued", extra={"run_ids": ids})
        except Exception:  # keep the loop alive; the next pass retries
            logger.exception("recovery.failed")
        if _stop.wait(RECOVERY_EVERY_S):
            return


def _on_ready(**_: Any) -> None:
    threading.Thread(target=_loop, name="mcscope-recovery", daemon=True).start()


def _on_shutdown(**_: Any) -> None:
    _stop.set()


def _on_fork(**_: Any) -> None:
    # A forked pool process must not share the parent's pooled database connections.
    engine.dispose(close=False)


worker_ready.connect(_on_ready)
worker_shutdown.connect(_on_shutdown)
worker_process_init.connect(_on_fork)
