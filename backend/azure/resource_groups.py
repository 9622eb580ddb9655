"""mcscope's resource groups as Azure holds them: the groups carrying its testbed tag, the
record that a group is gone, and the untracked ones (tagged, unknown to the database) that the
API lists and deletes on the user's word.

Only groups carrying mcscope's testbed tag are looked at further; any other group in the
subscription is never touched, whatever its name. The janitor (backend/azure/janitor.py) sweeps
these groups; the API's untracked-groups routes call `list_untracked` and `untracked_group`."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime

from azure.core.exceptions import AzureError
from sqlalchemy.orm import Session

from backend.azure import provisioning
from backend.azure.arm import Arm, arm_clients
from backend.azure.resource_plan import TAG_TESTBED
from backend.core.db import SessionLocal
from backend.crud.azure_group import known_groups, record_groups_deleted


@dataclass(frozen=True)
class Group:
    """A resource group carrying mcscope's testbed tag."""

    name: str
    location: str
    tags: dict[str, str]


class AzureAnswered(RuntimeError):
    """Azure refused or failed a request; the message is ARM's code and text."""


class GroupNotFound(LookupError):
    """No resource group of that name in the subscription."""


class GroupNotOurs(PermissionError):
    """The group has no mcscope testbed tag: mcscope never touches it."""


class GroupTracked(ValueError):
    """The group belongs to a lab the database knows: delete the lab instead."""


def mcscope_groups(arm: Arm) -> list[Group]:
    """Every group with mcscope's testbed tag; any other group is never looked at further."""
    out = []
    for group in arm.resource.resource_groups.list():
        tags = dict(group.tags or {})
        if TAG_TESTBED in tags:
            out.append(Group(str(group.name), str(group.location), tags))
    return sorted(out, key=lambda g: g.name)


def untracked_groups(arm: Arm, known: set[str]) -> list[Group]:
    """mcscope's groups whose (lowercased) name is not in `known`: listed for the user,
    deleted only when asked."""
    return [g for g in mcscope_groups(arm) if g.name.lower() not in known]


def mark_deleted(resource_groups: list[str], at: datetime | None = None) -> int:
    """Record that these groups are gone: their labs' cost stops accruing at `at`."""
    if not resource_groups:
        return 0
    with SessionLocal() as session:
        n = record_groups_deleted(
            session=session, resource_groups=resource_groups, at=at or datetime.now(UTC)
        )
        session.commit()
    return n


def list_untracked(*, session: Session, arm: Arm) -> list[Group]:
    """mcscope's groups that no lab in the database holds (AzureAnswered when Azure fails)."""
    try:
        return untracked_groups(arm, known_groups(session=session))
    except AzureError as exc:
        raise AzureAnswered(provisioning.describe(exc)) from exc


def untracked_group(*, session: Session, arm: Arm, name: str) -> Group:
    """The untracked group `name`, checked deletable: GroupNotFound, GroupNotOurs (no mcscope
    tag), GroupTracked (a known lab's) or AzureAnswered otherwise."""
    try:
        tags = provisioning.group_tags(arm, name)
        if tags is None:
            raise GroupNotFound(name)
        if TAG_TESTBED not in tags:
            raise GroupNotOurs(name)
        if name.lower() in known_groups(session=session):
            raise GroupTracked(name)
        location = str(arm.resource.resource_groups.get(name).location)
    except AzureError as exc:
        raise AzureAnswered(provisioning.describe(exc)) from exc
    return Group(name, location, tags)


def delete_untracked(resource_group: str, arm_for: Callable[[], Arm] = arm_clients) -> bool:
    """Delete one group the user confirmed (provisioning.delete refuses one without mcscope's
    tag) and record it gone; False when it was gone already. The body of the
    mcscope.azure.delete_group task."""
    arm = arm_for()
    try:
        gone = provisioning.delete(arm, resource_group)
    finally:
        arm.close()
    mark_deleted([resource_group])
    return gone
