"""Recovering runs whose worker died: stop their leftover processes, re-queue, re-send.

Redis redelivers an unacked task only after the visibility timeout (hours), so a new worker
looks for runs left `running` by a dead owner: same host and its PID gone, or a heartbeat
older than STALE_AFTER_S. The re-queue is a conditional UPDATE on (status, attempt), so two
workers recovering at once, or the late redelivery, change nothing twice. Queued runs are
judged by the worker process holding their message, not by the broker's unacked messages
(backend.crud.dispatch): a killed worker's countdown retry is re-sent within a recovery period.
"""

import logging
import shlex
from collections.abc import Callable
from datetime import timedelta
from typing import Any

from sqlalchemy import func, select, update
from sqlalchemy.orm import Session

from backend.core.config import settings
from backend.core.processes import owner_dead
from backend.crud.dispatch import Enqueue, Message, mark_sent, resend, send_unsent, stuck_runs
from backend.models import Run, RunStatus
from worker.drivers.errors import DriverError
from worker.drivers.host import Host, HostSpec, program_name
from worker.runs import lifecycle

logger = logging.getLogger(__name__)

# Generous: stopping a middleware and fetching outputs may pause the heartbeat for a while.
STALE_AFTER_S = 120
MAX_ATTEMPTS = 3


def orphaned_runs(session: Session) -> list[Run]:
    stale = func.now() - timedelta(seconds=STALE_AFTER_S)
    running = session.scalars(select(Run).where(Run.status == RunStatus.RUNNING)).all()
    stale_ids = set(
        session.scalars(
            select(Run.id).where(Run.status == RunStatus.RUNNING, Run.heartbeat_at < stale)
        )
    )
    return [r for r in running if r.id in stale_ids or owner_dead(r.worker)]


def stop_leftovers(run: Run) -> None:
    """SIGTERM then SIGKILL every process the dead attempt started, if still that program."""
    stop_recorded(list(reversed(run.commands or [])), {"run_id": run.id})


def spec_of(entry: dict[str, Any]) -> HostSpec:
    """The host of a recorded command entry (KeyError when the entry lacks one)."""
    return HostSpec(
        entry["host"],
        entry["address"],
        entry["ssh_user"],
        entry["ssh_port"],
        entry["key_path"],
        entry.get("host_key"),  # recorded since host keys are pinned (None: older run)
    )


def stop_recorded(entries: list[dict[str, Any]], log: dict[str, Any]) -> None:
    """Stop each recorded process by PID, in order, if its PID still runs that program (PIDs
    get reused); on its own connection. Failures are logged with `log`, never raised."""
    for entry in entries:
        try:
            spec = spec_of(entry)
            program = program_name([str(a) for a in entry["argv"]])
            pid = int(entry["pid"])
        except (KeyError, IndexError, TypeError, ValueError):
            continue
        host = Host(spec)
        try:
            args = host.run(f"ps -o args= -p {pid} || true").strip()
            if shlex.split(args or "x")[0].endswith(program):
                host.stop(pid, grace_s=5)
        except (DriverError, ValueError) as exc:
            logger.warning("recovery.stop_failed", extra={**log, "error": str(exc)})
        finally:
            host.close()


def resend_stuck_runs(
    session: Session,
    waiting: Callable[[], set[tuple[int, int | None]]],
    enqueue: Enqueue,
) -> list[int]:
    """Re-send queued runs without a live message: lost with Redis, held by a dead worker or
    past their lease; and send runs left unsent for RESEND_AFTER_S (their sender died).
    Duplicates are harmless: a message whose number is not the run's is dropped."""
    resent = resend(session, stuck_runs(session, waiting), enqueue)
    unsent: list[int] = []

    def send(messages: list[Message]) -> None:
        enqueue(messages)
        unsent.extend(i for i, _ in messages)

    send_unsent(session, send, older_than_s=settings.RESEND_AFTER_S)
    if resent or unsent:
        logger.warning("recovery.resend", extra={"run_ids": resent[:100], "unsent": len(unsent)})
    return resent + unsent


def recover_orphaned_runs(session: Session, enqueue: Enqueue) -> list[int]:
    """Re-queue (or fail, past MAX_ATTEMPTS) runs of dead workers; returns re-queued ids."""
    requeued: list[int] = []
    for run in orphaned_runs(session):
        logger.warning("run.orphaned", extra={"run_id": run.id, "worker": run.worker})
        stop_leftovers(run)
        if run.attempt >= MAX_ATTEMPTS:
            lifecycle.finish_run(
                session,
                run.id,
                RunStatus.FAILED,
                f"its worker died during {run.attempt} attempts (last: {run.worker})",
                attempt=run.attempt,
            )
            continue
        done = session.execute(
            update(Run)
            .where(Run.id == run.id, Run.status == RunStatus.RUNNING, Run.attempt == run.attempt)
            .values(
                status=RunStatus.QUEUED,
                error=f"re-queued: worker {run.worker} died during attempt {run.attempt}",
                started_at=None,
                heartbeat_at=None,
            )
        ).rowcount  # type: ignore[attr-defined]
        session.commit()
        if done:
            requeued.append(run.id)
    # A new message number: the dead worker's unacked one, redelivered hours later, is stale.
    messages = mark_sent(session, requeued)
    if messages:
        enqueue(messages)
    return requeued
