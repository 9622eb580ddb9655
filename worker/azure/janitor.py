"""The janitor's database side: which labs it acts on, and what it records.

- A lab left `creating` by a dead worker (same machine and its PID gone, or no heartbeat for
  STALE_AFTER_S) is queued again, so the next worker resumes it; past MAX_ATTEMPTS its group
  is deleted and the lab failed.
- Before an expired testbed's group is deleted, its queued and running runs end `failed` with
  EXPIRED_REASON (a running run's worker sees that on its next heartbeat and lets go without
  reaching for the hosts again).
- The group of a failed creation that is still there (its deletion failed) is deleted, unless
  a live lab of the same name uses it now.
- A ready testbed with no queued or running run for AZURE_IDLE_DEALLOCATE_S is deallocated.
The Azure side (infra.azure.janitor) knows nothing of the database; worker/tasks/azure.py runs
both in one pass."""

import logging
from collections.abc import Callable
from datetime import UTC, datetime, timedelta

from sqlalchemy import func, select, update
from sqlalchemy.orm import Session

from backend.core.processes import owner_dead
from backend.models import AzureLab, AzureLabStatus, Experiment, Run, RunStatus
from worker.azure.labs import MAX_ATTEMPTS, STALE_AFTER_S
from worker.live import publish
from worker.runs.lifecycle import TESTBED_EXPIRED

logger = logging.getLogger(__name__)

EXPIRED_REASON = TESTBED_EXPIRED
_LIVE = (AzureLabStatus.QUEUED.value, AzureLabStatus.CREATING.value, AzureLabStatus.READY.value)
_UNFINISHED = (RunStatus.QUEUED, RunStatus.RUNNING)


def orphaned_labs(session: Session) -> list[AzureLab]:
    """Labs left `creating` by a worker that died."""
    stale = datetime.now(UTC) - timedelta(seconds=STALE_AFTER_S)
    rows = session.scalars(
        select(AzureLab).where(AzureLab.status == AzureLabStatus.CREATING.value)
    ).all()
    return [
        r for r in rows if owner_dead(r.worker) or r.heartbeat_at is None or r.heartbeat_at < stale
    ]


def recover_orphaned_labs(
    session: Session, enqueue: Callable[[int], None], delete_group: Callable[[str], None]
) -> tuple[list[int], list[int]]:
    """(labs queued again, labs given up: their group deleted, the lab failed)."""
    requeued: list[int] = []
    given_up: list[int] = []
    for lab in orphaned_labs(session):
        logger.warning("azure_lab.orphaned", extra={"lab_id": lab.id, "worker": lab.worker})
        mine = (
            (AzureLab.id == lab.id)
            & (AzureLab.status == AzureLabStatus.CREATING.value)
            & (AzureLab.attempt == lab.attempt)
        )
        if lab.attempt >= MAX_ATTEMPTS:
            try:
                delete_group(lab.resource_group)
            except Exception as exc:  # Azure or the engine's refusal: the next pass tries again
                logger.warning(
                    "azure_lab.cleanup_failed", extra={"lab_id": lab.id, "error": str(exc)}
                )
                continue
            error = (
                f"its worker died during {lab.attempt} attempts (last: {lab.worker}); "
                f"resource group {lab.resource_group} was deleted"
            )
            values = {"status": AzureLabStatus.FAILED.value, "error": error}
            done = session.execute(update(AzureLab).where(mine).values(**values)).rowcount  # type: ignore[attr-defined]
            session.commit()
            if done:
                given_up.append(lab.id)
            continue
        note = f"resuming: worker {lab.worker} died during attempt {lab.attempt}"
        done = session.execute(
            update(AzureLab)
            .where(mine)
            .values(status=AzureLabStatus.QUEUED.value, error=note, heartbeat_at=None)
        ).rowcount  # type: ignore[attr-defined]
        session.commit()
        if done:
            enqueue(lab.id)
            requeued.append(lab.id)
    return requeued, given_up


def end_runs_of(session: Session, resource_groups: list[str], reason: str) -> list[int]:
    """Fail the queued and running runs on the testbeds of these groups; their ids."""
    if not resource_groups:
        return []
    testbeds = select(AzureLab.testbed_id).where(
        AzureLab.resource_group.in_(resource_groups), AzureLab.testbed_id.is_not(None)
    )
    experiments = select(Experiment.id).where(Experiment.testbed_id.in_(testbeds))
    ended = session.execute(
        update(Run)
        .where(Run.experiment_id.in_(experiments), Run.status.in_(_UNFINISHED))
        .values(status=RunStatus.FAILED, error=reason, finished_at=func.now())
        .returning(Run.id, Run.experiment_id)
    ).all()
    session.commit()
    for run_id, experiment_id in ended:
        publish.run_state(experiment_id, run_id, RunStatus.FAILED.value, reason)
    if ended:
        logger.warning("azure.runs_ended", extra={"runs": [r for r, _ in ended], "why": reason})
    return sorted(r for r, _ in ended)


def failed_groups(session: Session) -> set[str]:
    """Groups of failed creations not yet recorded deleted, that no live lab uses."""
    live = select(AzureLab.resource_group).where(
        AzureLab.status.in_(_LIVE), AzureLab.deleted_at.is_(None)
    )
    return set(
        session.scalars(
            select(AzureLab.resource_group).where(
                AzureLab.status == AzureLabStatus.FAILED.value,
                AzureLab.deleted_at.is_(None),
                AzureLab.resource_group.not_in(live),
            )
        )
    )


def idle_labs(session: Session, idle_s: float, now: datetime | None = None) -> list[AzureLab]:
    """Ready labs whose testbed has had no queued or running run, and no run end, for
    `idle_s` (counted from the lab's last change when it never ran one)."""
    cutoff = (now or datetime.now(UTC)) - timedelta(seconds=idle_s)
    out = []
    for lab in session.scalars(
        select(AzureLab).where(
            AzureLab.status == AzureLabStatus.READY.value,
            AzureLab.deleted_at.is_(None),
            AzureLab.testbed_id.is_not(None),
        )
    ):
        on_it = select(Run).join(Experiment).where(Experiment.testbed_id == lab.testbed_id)
        busy = session.scalar(
            select(func.count()).select_from(on_it.where(Run.status.in_(_UNFINISHED)).subquery())
        )
        last_end = session.scalar(
            select(func.max(Run.finished_at))
            .join(Experiment)
            .where(Experiment.testbed_id == lab.testbed_id)
        )
        last = max(t for t in (lab.updated_at, last_end) if t is not None)
        if not busy and last < cutoff:
            out.append(lab)
    return out


def mark_stopped(session: Session, resource_group: str) -> bool:
    """An idle testbed the janitor deallocated shows as stopped (the page offers Start), and
    later passes leave it alone; only a lab still ready is changed."""
    changed = session.execute(
        update(AzureLab)
        .where(
            AzureLab.resource_group == resource_group,
            AzureLab.status == AzureLabStatus.READY.value,
        )
        .values(status=AzureLabStatus.STOPPED.value)
    )
    session.commit()
    return bool(changed.rowcount)  # type: ignore[attr-defined]
