"""The heartbeat of a running attempt, on its own thread for the whole attempt.

It refreshes Run.heartbeat_at every HEARTBEAT_EVERY_S from claim to the final state, so
stopping, fetching and parsing (which can take minutes) never look like a dead worker; it
reads the cancel flag and checks that the testbed lock is still held. The run's own thread
calls `check()` between steps, which raises what the heartbeat found.
"""

import logging
import threading
from collections.abc import Callable

from backend.core.db import SessionLocal
from worker.runs import lifecycle
from worker.runs.lock import TestbedLock

logger = logging.getLogger(__name__)

HEARTBEAT_EVERY_S = 5.0


class RunCancelled(Exception):
    """The user asked to cancel the run."""


class RunLost(Exception):
    """The run is no longer ours (re-queued after we were presumed dead)."""


class LockLost(Exception):
    """The testbed's advisory lock was lost (PostgreSQL restarted or its connection dropped):
    another worker may start a run on the same machines."""


class Heartbeat:
    def __init__(self, run_id: int, attempt: int, lock: TestbedLock | None) -> None:
        self.run_id = run_id
        self.attempt = attempt
        self.lock = lock
        self.cancelled = False
        self.lost = False
        self.lock_lost = False
        # Called once on this thread when the run is found lost (see RunContext.let_go).
        self.on_lost: Callable[[], None] | None = None
        self._stop = threading.Event()
        self._thread = threading.Thread(
            target=self._loop, name=f"heartbeat-run-{run_id}", daemon=True
        )

    def __enter__(self) -> "Heartbeat":
        self.beat()
        self._thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        self._stop.set()
        self._thread.join()

    def beat(self) -> None:
        """One beat: refresh heartbeat_at, read the cancel flag, check the lock."""
        try:
            with SessionLocal() as session:
                cancel = lifecycle.heartbeat(session, self.run_id, self.attempt)
        except Exception:  # the database is away: try again next beat, recovery judges staleness
            logger.exception("heartbeat.failed", extra={"run_id": self.run_id})
            return
        if cancel is None and not self.lost:
            self.lost = True
            if self.on_lost is not None:
                try:
                    self.on_lost()
                except Exception:  # the run's own thread still sees `lost` and lets go
                    logger.exception("heartbeat.on_lost_failed", extra={"run_id": self.run_id})
        elif cancel:
            self.cancelled = True
        if self.lock is not None and not self.lock_lost and not self.lock.held():
            logger.error("testbed_lock.lost", extra={"run_id": self.run_id})
            self.lock_lost = True

    def _loop(self) -> None:
        while not self._stop.wait(HEARTBEAT_EVERY_S):
            self.beat()

    def check(self) -> None:
        """Raise what the heartbeat found: RunLost, LockLost or RunCancelled."""
        if self.lost:
            raise RunLost()
        if self.lock_lost:
            raise LockLost(
                "lost the testbed's lock (PostgreSQL restarted or its connection dropped)"
            )
        if self.cancelled:
            raise RunCancelled()
