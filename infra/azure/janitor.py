"""The janitor's Azure side: delete every resource group mcscope made whose expiry has passed.

Only groups carrying mcscope's testbed tag and a readable expiry are considered; any other
group in the subscription is never touched, whatever its name. The worker runs this from a
Celery beat task (worker/tasks/azure.py)."""

from __future__ import annotations

import logging
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
    pass), and mcscope groups skipped because their expiry tag could not be read."""

    deleted: list[str] = field(default_factory=list)
    failed: dict[str, str] = field(default_factory=dict)
    unreadable: list[str] = field(default_factory=list)


def _expiry(value: str) -> datetime:
    t = datetime.fromisoformat(value)
    return t if t.tzinfo else t.replace(tzinfo=UTC)


def expired_groups(arm: Arm, now: datetime, sweep: Sweep) -> list[str]:
    """mcscope's groups whose expiry is at or before `now` (timezone-aware)."""
    out = []
    for group in arm.resource.resource_groups.list():
        tags = group.tags or {}
        if TAG_TESTBED not in tags:
            continue  # not mcscope's: never touched
        try:
            expires = _expiry(tags[TAG_EXPIRES])
        except (KeyError, ValueError):
            sweep.unreadable.append(str(group.name))
            continue
        if expires <= now:
            out.append(str(group.name))
    return out


def sweep_expired(arm: Arm, now: datetime | None = None) -> Sweep:
    """Delete the expired groups; one failing does not stop the others. The deletions run
    side by side (each poller polls in its own thread): a group takes minutes to go."""
    sweep = Sweep()
    pollers = {}
    for name in expired_groups(arm, now or datetime.now(UTC), sweep):
        try:
            pollers[name] = arm.resource.resource_groups.begin_delete(name)
        except AzureError as exc:
            sweep.failed[name] = describe(exc)
    for name, poller in pollers.items():
        try:
            poller.result()
        except AzureError as exc:
            sweep.failed[name] = describe(exc)
            logger.warning("azure.expired_delete_failed", extra={"resource_group": name})
            continue
        sweep.deleted.append(name)
        logger.info("azure.expired_deleted", extra={"resource_group": name})
    return sweep
