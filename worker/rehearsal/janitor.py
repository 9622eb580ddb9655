"""The rehearsal janitor, one pass every MCSCOPE_REHEARSAL_SWEEP_EVERY_S (beat):

- a ready rehearsal past its expiry: its runs end "testbed expired", its hosts are torn down;
- a build or teardown whose worker died (same machine and its PID gone, or no heartbeat for
  STALE_AFTER_S): torn down (a build is not resumed: building again takes seconds);
- a failed rehearsal that still records something: torn down again.
Only what a row records is touched: namespaces of another installation or of tests are never
seen here."""

import logging
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

from sqlalchemy import select
from sqlalchemy.orm import Session

from backend.core.db import SessionLocal
from backend.core.processes import owner_dead
from backend.domain.azure_lab_states import TESTBED_EXPIRED
from backend.domain.rehearsal_states import RehearsalStatus
from backend.models import Rehearsal
from worker.rehearsal.lifecycle import tear_down

logger = logging.getLogger(__name__)

# A worker on another machine is judged dead after this long without a heartbeat (a build
# beats at every host it makes, a few seconds each).
STALE_AFTER_S = 120
WORKER_DIED = "its worker died while it was {}"


@dataclass
class RehearsalSweep:
    expired: list[int] = field(default_factory=list)
    orphaned: list[int] = field(default_factory=list)
    retried: list[int] = field(default_factory=list)

    def anything(self) -> bool:
        return bool(self.expired or self.orphaned or self.retried)


def _orphaned(row: Rehearsal, now: datetime) -> bool:
    stale = now - timedelta(seconds=STALE_AFTER_S)
    return owner_dead(row.worker) or row.heartbeat_at is None or row.heartbeat_at < stale


def sweep_once(now: datetime | None = None) -> RehearsalSweep:
    """One pass (tests call it with a `now` past an expiry)."""
    now = now or datetime.now(UTC)
    sweep = RehearsalSweep()
    with SessionLocal() as session:
        for row in _rows(session, RehearsalStatus.READY):
            if row.expires_at <= now:
                tear_down(session, row, TESTBED_EXPIRED)
                sweep.expired.append(row.id)
        for row in _rows(session, RehearsalStatus.BUILDING):
            if _orphaned(row, now):
                logger.warning("rehearsal.orphaned", extra={"id": row.id, "worker": row.worker})
                why = WORKER_DIED.format("building it")
                tear_down(session, row, why, RehearsalStatus.FAILED, f"{why}; what it made is gone")
                sweep.orphaned.append(row.id)
        for row in _rows(session, RehearsalStatus.DELETING):
            if _orphaned(row, now):
                tear_down(session, row, WORKER_DIED.format("tearing it down"))
                sweep.orphaned.append(row.id)
        for row in _rows(session, RehearsalStatus.FAILED):
            if row.made:  # a build's teardown that left something
                tear_down(session, row, "its build failed", RehearsalStatus.FAILED, row.error)
                sweep.retried.append(row.id)
    if sweep.anything():
        logger.warning("rehearsal.sweep.done", extra=vars(sweep))
    return sweep


def _rows(session: Session, status: RehearsalStatus) -> list[Rehearsal]:
    return list(session.scalars(select(Rehearsal).where(Rehearsal.status == status.value)))
