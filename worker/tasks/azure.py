"""Azure testbeds' tasks, on their own queue (AZURE_QUEUE, a worker of their own: they poll ARM
for minutes): creating a lab recorded in the database (worker.azure.labs), deleting a group the
user confirmed, and the janitor every AZURE_JANITOR_EVERY_S, which reconciles Azure with the
database (infra.azure.janitor for Azure, worker.azure.janitor for the database)."""

import logging

from azure.core.exceptions import AzureError, ResourceNotFoundError

from backend.core.azure import NoSubscription, arm_clients
from backend.core.config import settings
from backend.core.db import SessionLocal
from backend.core.queue import (
    AZURE_CREATE_LAB_TASK,
    AZURE_DELETE_GROUP_TASK,
    AZURE_DELETE_LAB_TASK,
    AZURE_JANITOR_TASK,
    AZURE_QUEUE,
    AZURE_START_LAB_TASK,
    AZURE_STOP_LAB_TASK,
    enqueue_azure_lab,
)
from infra.azure import provision
from infra.azure.arm import Arm
from infra.azure.janitor import Sweep, delete_groups, mcscope_groups, sweep_expired
from worker.azure import janitor
from worker.azure.labs import create_lab, mark_deleted
from worker.azure.power import delete_lab, start_lab, stop_lab
from worker.tasks.base import instrumented_task

logger = logging.getLogger(__name__)

# Deleting a resource group takes minutes on Azure; the deletions run side by side.
SOFT_TIME_LIMIT_S = 1800
# Creating a lab: VMs are created one after another, a few minutes each.
CREATE_SOFT_TIME_LIMIT_S = 3600


def _idle(arm: Arm, sweep: Sweep) -> None:
    with SessionLocal() as session:
        labs = janitor.idle_labs(session, settings.AZURE_IDLE_DEALLOCATE_S)
        idle = [lab.resource_group for lab in labs]
    for rg in idle:
        try:
            if any(vm.power_state == "running" for vm in provision.status(arm, rg)):
                provision.deallocate(arm, rg)
                with SessionLocal() as session:
                    janitor.mark_stopped(session, rg)
                sweep.deallocated.append(rg)
                logger.warning("azure.idle_deallocated", extra={"resource_group": rg})
        except ResourceNotFoundError:
            mark_deleted([rg])  # deleted outside mcscope: its cost stops here
        except AzureError as exc:
            sweep.failed[rg] = provision.describe(exc)


def sweep_with(arm: Arm) -> Sweep:
    """One janitor pass with these clients (tests pass the fake's)."""
    sweep = Sweep()
    with SessionLocal() as session:

        def delete_one(rg: str) -> None:
            if provision.delete(arm, rg):
                mark_deleted([rg])

        sweep.resumed, sweep.given_up = janitor.recover_orphaned_labs(
            session, enqueue_azure_lab, delete_one
        )

        def end_runs(groups: list[str]) -> None:
            sweep.runs_ended += janitor.end_runs_of(session, groups, janitor.EXPIRED_REASON)

        sweep_expired(arm, before_delete=end_runs, sweep=sweep)
        failed = janitor.failed_groups(session)
        leftovers = [g.name for g in mcscope_groups(arm) if g.name in failed]
    delete_groups(arm, leftovers, sweep)
    mark_deleted(sweep.deleted)
    _idle(arm, sweep)
    if sweep.anything():
        logger.warning("azure.sweep.done", extra=vars(sweep))
    return sweep


def sweep_once(arm: Arm | None = None) -> Sweep | None:
    """One pass; None when no subscription is configured."""
    if arm is not None:
        return sweep_with(arm)
    try:
        clients = arm_clients()
    except NoSubscription:
        return None
    try:
        return sweep_with(clients)
    finally:
        clients.close()


@instrumented_task(
    name=AZURE_JANITOR_TASK,
    queue=AZURE_QUEUE,
    soft_time_limit=SOFT_TIME_LIMIT_S,
    time_limit=SOFT_TIME_LIMIT_S + 120,
)
def sweep_expired_testbeds() -> None:
    sweep_once()


@instrumented_task(
    name=AZURE_CREATE_LAB_TASK,
    queue=AZURE_QUEUE,
    soft_time_limit=CREATE_SOFT_TIME_LIMIT_S,
    time_limit=CREATE_SOFT_TIME_LIMIT_S + 300,
)
def create_azure_lab(lab_id: int) -> None:
    create_lab(lab_id)


@instrumented_task(
    name=AZURE_STOP_LAB_TASK,
    queue=AZURE_QUEUE,
    soft_time_limit=SOFT_TIME_LIMIT_S,
    time_limit=SOFT_TIME_LIMIT_S + 120,
)
def stop_azure_lab(lab_id: int, before: str | None = None) -> None:
    stop_lab(lab_id, before)


@instrumented_task(
    name=AZURE_START_LAB_TASK,
    queue=AZURE_QUEUE,
    soft_time_limit=SOFT_TIME_LIMIT_S,
    time_limit=SOFT_TIME_LIMIT_S + 120,
)
def start_azure_lab(lab_id: int, before: str | None = None) -> None:
    start_lab(lab_id, before)


@instrumented_task(
    name=AZURE_DELETE_LAB_TASK,
    queue=AZURE_QUEUE,
    soft_time_limit=SOFT_TIME_LIMIT_S,
    time_limit=SOFT_TIME_LIMIT_S + 120,
)
def delete_azure_lab(lab_id: int, before: str | None = None) -> None:
    delete_lab(lab_id, before)


def delete_group(resource_group: str) -> bool:
    """Delete one group the user confirmed; provision.delete refuses one without mcscope's tag."""
    clients = arm_clients()
    try:
        gone = provision.delete(clients, resource_group)
    finally:
        clients.close()
    mark_deleted([resource_group])
    return gone


@instrumented_task(
    name=AZURE_DELETE_GROUP_TASK,
    queue=AZURE_QUEUE,
    soft_time_limit=SOFT_TIME_LIMIT_S,
    time_limit=SOFT_TIME_LIMIT_S + 120,
)
def delete_azure_group(resource_group: str) -> None:
    delete_group(resource_group)
