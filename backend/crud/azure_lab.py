"""Azure labs: listing them and moving one between states with conditional UPDATEs (two
clicks, or two workers, move a lab once), and the janitor's reads: labs being created, failed
groups, ready labs and what runs on their testbeds. Nothing here commits: the caller does."""

from collections.abc import Iterable
from datetime import UTC, datetime

from sqlalchemy import ColumnElement, func, select, update
from sqlalchemy.orm import Session

from backend.crud.repetitions import PENDING
from backend.models import AzureLab, AzureLabStatus, Experiment, Run, RunStatus

_LIVE = (AzureLabStatus.QUEUED.value, AzureLabStatus.CREATING.value, AzureLabStatus.READY.value)


def list_labs(*, session: Session, skip: int, limit: int) -> tuple[list[AzureLab], int]:
    """The labs of one page, newest first, and how many there are."""
    rows = session.scalars(
        select(AzureLab).order_by(AzureLab.id.desc()).offset(skip).limit(limit)
    ).all()
    count = session.scalar(select(func.count()).select_from(AzureLab)) or 0
    return list(rows), count


def move_lab(
    *, session: Session, lab_id: int, before: str, allowed: Iterable[str], to: str
) -> bool:
    """Set the lab's status to `to` if it is still `before`, one of `allowed`, and not
    deleted by the janitor; whether it moved (not committed)."""
    moved = session.execute(
        update(AzureLab)
        .where(
            AzureLab.id == lab_id,
            AzureLab.status == before,
            AzureLab.status.in_(list(allowed)),
            AzureLab.deleted_at.is_(None),  # the janitor deleted its group
        )
        .values(status=to, error=None)
    ).rowcount  # type: ignore[attr-defined]
    return bool(moved)


def set_lab_status(*, session: Session, lab_id: int, status: str) -> None:
    """Put the lab back in `status` (a task that could not be sent; not committed)."""
    session.execute(update(AzureLab).where(AzureLab.id == lab_id).values(status=status))


def forget_failed_lab(*, session: Session, lab_id: int) -> None:
    """Record a failed lab deleted now, if it is still failed (not committed)."""
    session.execute(
        update(AzureLab)
        .where(AzureLab.id == lab_id, AzureLab.status == AzureLabStatus.FAILED.value)
        .values(status=AzureLabStatus.DELETED.value, deleted_at=func.now())
    )


def claim_lab(*, session: Session, lab_id: int, worker: str) -> bool:
    """Move a queued lab to creating for `worker` (heartbeat now, one attempt more); whether
    it moved (not committed)."""
    claimed = session.execute(
        update(AzureLab)
        .where(AzureLab.id == lab_id, AzureLab.status == AzureLabStatus.QUEUED.value)
        .values(
            status=AzureLabStatus.CREATING.value,
            worker=worker,
            heartbeat_at=datetime.now(UTC),
            attempt=AzureLab.attempt + 1,
        )
    ).rowcount  # type: ignore[attr-defined]
    return bool(claimed)


def beat(*, session: Session, lab_id: int, worker: str) -> None:
    """Refresh the heartbeat of a lab `worker` still holds (not committed)."""
    session.execute(
        update(AzureLab)
        .where(AzureLab.id == lab_id, AzureLab.worker == worker)
        .values(heartbeat_at=datetime.now(UTC))
    )


def creating_labs(*, session: Session) -> list[AzureLab]:
    """Labs in `creating` (the janitor judges whether their worker died)."""
    return list(
        session.scalars(select(AzureLab).where(AzureLab.status == AzureLabStatus.CREATING.value))
    )


def _still_creating(lab_id: int, attempt: int) -> ColumnElement[bool]:
    """The lab is still in the creating attempt the janitor looked at."""
    return (
        (AzureLab.id == lab_id)
        & (AzureLab.status == AzureLabStatus.CREATING.value)
        & (AzureLab.attempt == attempt)
    )


def fail_creation(*, session: Session, lab_id: int, attempt: int, error: str) -> bool:
    """Fail a lab still in this creating attempt; whether it moved (not committed)."""
    moved = session.execute(
        update(AzureLab)
        .where(_still_creating(lab_id, attempt))
        .values(status=AzureLabStatus.FAILED.value, error=error)
    ).rowcount  # type: ignore[attr-defined]
    return bool(moved)


def requeue_creation(*, session: Session, lab_id: int, attempt: int, note: str) -> bool:
    """Queue again a lab still in this creating attempt (its heartbeat cleared, `note` as its
    error); whether it moved (not committed)."""
    moved = session.execute(
        update(AzureLab)
        .where(_still_creating(lab_id, attempt))
        .values(status=AzureLabStatus.QUEUED.value, error=note, heartbeat_at=None)
    ).rowcount  # type: ignore[attr-defined]
    return bool(moved)


def fail_runs_on_groups(
    *, session: Session, resource_groups: list[str], reason: str
) -> list[tuple[int, int]]:
    """Fail the queued and running runs on the testbeds of these groups' labs; (run id,
    experiment id) of each (not committed)."""
    testbeds = select(AzureLab.testbed_id).where(
        AzureLab.resource_group.in_(resource_groups), AzureLab.testbed_id.is_not(None)
    )
    experiments = select(Experiment.id).where(Experiment.testbed_id.in_(testbeds))
    ended = session.execute(
        update(Run)
        .where(Run.experiment_id.in_(experiments), Run.status.in_(PENDING))
        .values(status=RunStatus.FAILED, error=reason, finished_at=func.now())
        .returning(Run.id, Run.experiment_id)
    ).all()
    return [(run_id, experiment_id) for run_id, experiment_id in ended]


def failed_groups(*, session: Session) -> set[str]:
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


def ready_labs(*, session: Session) -> list[AzureLab]:
    """Ready labs with a testbed, not recorded deleted."""
    return list(
        session.scalars(
            select(AzureLab).where(
                AzureLab.status == AzureLabStatus.READY.value,
                AzureLab.deleted_at.is_(None),
                AzureLab.testbed_id.is_not(None),
            )
        )
    )


def testbed_activity(*, session: Session, testbed_id: int) -> tuple[int, datetime | None]:
    """How many queued or running runs the testbed has, and when its last run ended."""
    on_it = select(Run).join(Experiment).where(Experiment.testbed_id == testbed_id)
    busy = session.scalar(
        select(func.count()).select_from(on_it.where(Run.status.in_(PENDING)).subquery())
    )
    last_end = session.scalar(
        select(func.max(Run.finished_at))
        .join(Experiment)
        .where(Experiment.testbed_id == testbed_id)
    )
    return busy or 0, last_end


def stop_ready_lab(*, session: Session, resource_group: str) -> bool:
    """Mark the lab of this group stopped if it is still ready; whether it moved (not
    committed)."""
    moved = session.execute(
        update(AzureLab)
        .where(
            AzureLab.resource_group == resource_group,
            AzureLab.status == AzureLabStatus.READY.value,
        )
        .values(status=AzureLabStatus.STOPPED.value)
    ).rowcount  # type: ignore[attr-defined]
    return bool(moved)
