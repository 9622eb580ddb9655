"""Azure labs: listing them and moving one between states with conditional UPDATEs (two
clicks move a lab once)."""

from collections.abc import Iterable

from sqlalchemy import func, select, update
from sqlalchemy.orm import Session

from backend.models import AzureLab, AzureLabStatus


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
