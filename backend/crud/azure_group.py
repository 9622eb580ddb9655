"""Which resource groups the database knows: the janitor lists mcscope's other groups as
untracked, the API refuses to delete a known one as untracked."""

from sqlalchemy import select
from sqlalchemy.orm import Session

from backend.models import AzureLab


def known_groups(*, session: Session) -> set[str]:
    """Groups of labs not recorded deleted (lowercase: Azure's group names ignore case)."""
    names = session.scalars(select(AzureLab.resource_group).where(AzureLab.deleted_at.is_(None)))
    return {n.lower() for n in names}
