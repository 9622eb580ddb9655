"""Which resource groups the database knows (the janitor lists mcscope's other groups as
untracked, the API refuses to delete a known one as untracked), and recording groups gone."""

from datetime import datetime

from sqlalchemy import select, update
from sqlalchemy.orm import Session

from backend.models import AzureLab


def known_groups(*, session: Session) -> set[str]:
    """Groups of labs not recorded deleted (lowercase: Azure's group names ignore case)."""
    names = session.scalars(select(AzureLab.resource_group).where(AzureLab.deleted_at.is_(None)))
    return {n.lower() for n in names}


def record_groups_deleted(*, session: Session, resource_groups: list[str], at: datetime) -> int:
    """Record these groups' labs deleted at `at` (those not recorded already); how many (not
    committed)."""
    n = session.execute(
        update(AzureLab)
        .where(AzureLab.resource_group.in_(resource_groups), AzureLab.deleted_at.is_(None))
        .values(deleted_at=at)
    ).rowcount  # type: ignore[attr-defined]
    return int(n)
