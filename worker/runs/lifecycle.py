"""Run state transitions done with conditional UPDATEs, so a redelivered task is harmless."""

import logging
import socket

from sqlalchemy import func, update
from sqlalchemy.orm import Session

from backend.models import Run, RunStatus

logger = logging.getLogger(__name__)


def claim_run(session: Session, run_id: int) -> bool:
    """queued -> running. False when another delivery already took it or it was cancelled."""
    claimed = session.execute(
        update(Run)
        .where(Run.id == run_id, Run.status == RunStatus.QUEUED)
        .values(
            status=RunStatus.RUNNING,
            started_at=func.now(),
            attempt=Run.attempt + 1,
            worker=socket.gethostname(),
        )
    ).rowcount  # type: ignore[attr-defined]  # UPDATE gives a CursorResult
    session.commit()
    if not claimed:
        logger.info("run.not_claimed", extra={"run_id": run_id})
    return bool(claimed)


def finish_run(session: Session, run_id: int, status: RunStatus, error: str | None = None) -> None:
    """running -> a final state. A run someone else already finished is left alone."""
    session.execute(
        update(Run)
        .where(Run.id == run_id, Run.status == RunStatus.RUNNING)
        .values(status=status, error=error, finished_at=func.now())
    )
    session.commit()
    logger.info("run.finished", extra={"run_id": run_id, "status": status.value})
