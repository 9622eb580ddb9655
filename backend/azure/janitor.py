"""The janitor's Azure side: delete every resource group mcscope made whose expiry has passed,
delete the groups it is told to (failed creations), list mcscope's groups the database does
not know.

Only groups carrying mcscope's testbed tag are considered, and only those with a readable
expiry are deleted for it; any other group in the subscription is never touched, whatever its
name. The worker runs this from a Celery beat task (worker/tasks/azure.py), with the database
side in worker/azure/janitor.py."""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime

from azure.core.exceptions import AzureError

from infra.azure.arm import Arm
from infra.azure.plan import TAG_EXPIRES, TAG_TESTBED
from infra.azure.provision import describe

logger = logging.getLogger(__name__)


@dataclass
class Sweep:
    """What one pass did: groups deleted, groups whose deletion failed (tried again next
    pass), mcscope groups skipped because their expiry tag could not be read, runs ended
    because their testbed expired, testbeds deallocated for idleness, and labs whose dead
    worker's creation was queued again or given up (their group deleted)."""

    deleted: list[str] = field(default_factory=list)
    failed: dict[str, str] = field(default_factory=dict)
    unreadable: list[str] = field(default_factory=list)
    runs_ended: list[int] = field(default_factory=list)
    deallocated: list[str] = field(default_factory=list)
    resumed: list[int] = field(default_factory=list)
    given_up: list[int] = field(default_factory=list)

    def anything(self) -> bool:
        return any(vars(self).values())


@dataclass(frozen=True)
class Group:
    """A resource group carrying mcscope's testbed tag."""

    name: str
    location: str
    tags: dict[str, str]


def _expiry(value: str) -> datetime:
    t = datetime.fromisoformat(value)
    return t if t.tzinfo else t.replace(tzinfo=UTC)


def mcscope_groups(arm: Arm) -> list[Group]:
    """Every group with mcscope's testbed tag; any other group is never looked at further."""
    out = []
    for group in arm.resource.resource_groups.list():
        tags = dict(group.tags or {})
        if TAG_TESTBED in tags:
            out.append(Group(str(group.name), str(group.location), tags))
    return sorted(out, key=lambda g: g.name)


def untracked_groups(arm: Arm, known: set[str]) -> list[Group]:
    """mcscope's groups whose (lowercased) name the database does not know: listed for the
    user, deleted only when asked."""
    return [g for g in mcscope_groups(arm) if g.name.lower() not in known]


def expired_groups(arm: Arm, now: datetime, sweep: Sweep) -> list[str]:
    """mcscope's groups whose expiry is at or before `now` (timezone-aware)."""
    out = []
    for group in mcscope_groups(arm):
        try:
            expires = _expiry(group.tags[TAG_EXPIRES])
        except (KeyError, ValueError):
            sweep.unreadable.append(group.name)
            continue
        if expires <= now:
            out.append(group.name)
    return out


def delete_groups(arm: Arm, names: list[str], sweep: Sweep) -> None:
    """Delete these groups side by side (each poller polls in its own thread: a group takes
    minutes to go); one failing does not stop the others."""
    pollers = {}
    for name in names:
        try:
            pollers[name] = arm.resource.resource_groups.begin_delete(name)
        except AzureError as exc:
            sweep.failed[name] = describe(exc)
    for name, poller in pollers.items():
        try:
            poller.result()
        except AzureError as exc:
            sweep.failed[name] = describe(exc)
            logger.warning("azure.delete_failed", extra={"resource_group": name})
            continue
        sweep.deleted.append(name)
        logger.info("azure.group_deleted", extra={"resource_group": name})


def sweep_expired(
    arm: Arm,
    now: datetime | None = None,
    before_delete: Callable[[list[str]], None] | None = None,
    sweep: Sweep | None = None,
) -> Sweep:
    """Delete the expired groups, after `before_delete` (which ends their runs) is called
    with their names."""
    sweep = sweep or Sweep()
    expired = expired_groups(arm, now or datetime.now(UTC), sweep)
    if expired and before_delete is not None:
        before_delete(expired)
    delete_groups(arm, expired, sweep)
    return sweep
