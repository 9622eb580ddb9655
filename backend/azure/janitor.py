"""The janitor: one pass (`sweep_once`, run by the mcscope.azure.janitor beat task) that
reconciles Azure with the database.

- Every resource group mcscope made whose expiry has passed is deleted; before that, the
  queued and running runs on its testbed end `failed` with TESTBED_EXPIRED (a running run's
  worker sees that on its next heartbeat and lets go without reaching for the hosts again).
- A lab left `creating` by a dead worker (same machine and its PID gone, or no heartbeat for
  STALE_AFTER_S) is queued again, so the next worker resumes it; past MAX_ATTEMPTS its group
  is deleted and the lab failed.
- The group of a failed creation that is still there (its deletion failed) is deleted, unless
  a live lab of the same name uses it now.
- A ready testbed with no queued or running run for AZURE_IDLE_DEALLOCATE_S is deallocated.

Only groups carrying mcscope's testbed tag are considered (backend/azure/resource_groups.py),
and only those with a readable expiry are deleted for it; any other group in the subscription
is never touched, whatever its name."""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

from azure.core.exceptions import AzureError, ResourceNotFoundError
from sqlalchemy.orm import Session

from backend.azure import provisioning
from backend.azure.arm import Arm, NoSubscription, arm_clients
from backend.azure.lab_creation import MAX_ATTEMPTS, STALE_AFTER_S
from backend.azure.resource_groups import mark_deleted, mcscope_groups
from backend.azure.resource_plan import TAG_EXPIRES
from backend.core.config import settings
from backend.core.db import SessionLocal
from backend.core.processes import owner_dead
from backend.core.queue import enqueue_azure_lab
from backend.crud import azure_lab
from backend.domain.azure_lab_states import TESTBED_EXPIRED
from backend.models import AzureLab, RunStatus

logger = logging.getLogger(__name__)

# Told of each run the janitor ended: (experiment id, run id, status, error); the worker passes
# its live-event publisher (worker.live.publish.run_state), so open pages see the run end.
RunEnded = Callable[[int, int, str, str], None]


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


def _expiry(value: str) -> datetime:
    t = datetime.fromisoformat(value)
    return t if t.tzinfo else t.replace(tzinfo=UTC)


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
            sweep.failed[name] = provisioning.describe(exc)
    for name, poller in pollers.items():
        try:
            poller.result()
        except AzureError as exc:
            sweep.failed[name] = provisioning.describe(exc)
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


def orphaned_labs(session: Session) -> list[AzureLab]:
    """Labs left `creating` by a worker that died."""
    stale = datetime.now(UTC) - timedelta(seconds=STALE_AFTER_S)
    rows = azure_lab.creating_labs(session=session)
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
            done = azure_lab.fail_creation(
                session=session, lab_id=lab.id, attempt=lab.attempt, error=error
            )
            session.commit()
            if done:
                given_up.append(lab.id)
            continue
        note = f"resuming: worker {lab.worker} died during attempt {lab.attempt}"
        done = azure_lab.requeue_creation(
            session=session, lab_id=lab.id, attempt=lab.attempt, note=note
        )
        session.commit()
        if done:
            enqueue(lab.id)
            requeued.append(lab.id)
    return requeued, given_up


def end_runs_of(
    session: Session, resource_groups: list[str], reason: str, announce: RunEnded
) -> list[int]:
    """Fail the queued and running runs on the testbeds of these groups; their ids."""
    if not resource_groups:
        return []
    ended = azure_lab.fail_runs_on_groups(
        session=session, resource_groups=resource_groups, reason=reason
    )
    session.commit()
    for run_id, experiment_id in ended:
        announce(experiment_id, run_id, RunStatus.FAILED.value, reason)
    if ended:
        logger.warning("azure.runs_ended", extra={"runs": [r for r, _ in ended], "why": reason})
    return sorted(r for r, _ in ended)


def idle_labs(session: Session, idle_s: float, now: datetime | None = None) -> list[AzureLab]:
    """Ready labs whose testbed has had no queued or running run, and no run end, for
    `idle_s` (counted from the lab's last change when it never ran one)."""
    cutoff = (now or datetime.now(UTC)) - timedelta(seconds=idle_s)
    out = []
    for lab in azure_lab.ready_labs(session=session):
        assert lab.testbed_id is not None  # ready_labs returns labs with a testbed
        busy, last_end = azure_lab.testbed_activity(session=session, testbed_id=lab.testbed_id)
        last = max(t for t in (lab.updated_at, last_end) if t is not None)
        if not busy and last < cutoff:
            out.append(lab)
    return out


def mark_stopped(session: Session, resource_group: str) -> bool:
    """An idle testbed the janitor deallocated shows as stopped (the page offers Start), and
    later passes leave it alone; only a lab still ready is changed."""
    changed = azure_lab.stop_ready_lab(session=session, resource_group=resource_group)
    session.commit()
    return changed


def _idle(arm: Arm, sweep: Sweep) -> None:
    with SessionLocal() as session:
        labs = idle_labs(session, settings.AZURE_IDLE_DEALLOCATE_S)
        idle = [lab.resource_group for lab in labs]
    for rg in idle:
        try:
            if any(vm.power_state == "running" for vm in provisioning.status(arm, rg)):
                provisioning.deallocate(arm, rg)
                with SessionLocal() as session:
                    mark_stopped(session, rg)
                sweep.deallocated.append(rg)
                logger.warning("azure.idle_deallocated", extra={"resource_group": rg})
        except ResourceNotFoundError:
            mark_deleted([rg])  # deleted outside mcscope: its cost stops here
        except AzureError as exc:
            sweep.failed[rg] = provisioning.describe(exc)


def sweep_with(arm: Arm, *, announce: RunEnded) -> Sweep:
    """One janitor pass with these clients (tests pass the fake's)."""
    sweep = Sweep()
    with SessionLocal() as session:

        def delete_one(rg: str) -> None:
            if provisioning.delete(arm, rg):
                mark_deleted([rg])

        sweep.resumed, sweep.given_up = recover_orphaned_labs(
            session, enqueue_azure_lab, delete_one
        )

        def end_runs(groups: list[str]) -> None:
            sweep.runs_ended += end_runs_of(session, groups, TESTBED_EXPIRED, announce)

        sweep_expired(arm, before_delete=end_runs, sweep=sweep)
        failed = azure_lab.failed_groups(session=session)
        leftovers = [g.name for g in mcscope_groups(arm) if g.name in failed]
    delete_groups(arm, leftovers, sweep)
    mark_deleted(sweep.deleted)
    _idle(arm, sweep)
    if sweep.anything():
        logger.warning("azure.sweep.done", extra=vars(sweep))
    return sweep


def sweep_once(arm: Arm | None = None, *, announce: RunEnded) -> Sweep | None:
    """One pass; None when no subscription is configured. Without `arm`, the clients come
    from the settings."""
    if arm is not None:
        return sweep_with(arm, announce=announce)
    try:
        clients = arm_clients()
    except NoSubscription:
        return None
    try:
        return sweep_with(clients, announce=announce)
    finally:
        clients.close()
