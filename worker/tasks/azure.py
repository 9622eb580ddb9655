"""Azure testbeds' tasks: creating a lab recorded in the database (worker.azure.labs), and the
janitor (infra.azure.janitor), which deletes the resource groups of expired testbeds, on the
maintenance queue, every AZURE_JANITOR_EVERY_S."""

import logging

from backend.core.config import settings
from backend.core.queue import (
    AZURE_CREATE_LAB_TASK,
    AZURE_DELETE_LAB_TASK,
    AZURE_JANITOR_TASK,
    AZURE_START_LAB_TASK,
    AZURE_STOP_LAB_TASK,
    MAINTENANCE_QUEUE,
)
from infra.azure.arm import Arm, connect
from infra.azure.janitor import Sweep, sweep_expired
from worker.azure.labs import create_lab, mark_deleted
from worker.azure.power import delete_lab, start_lab, stop_lab
from worker.tasks.base import instrumented_task

logger = logging.getLogger(__name__)

# Deleting a resource group takes minutes on Azure; the deletions run side by side.
SOFT_TIME_LIMIT_S = 1800
# Creating a lab: VMs are created one after another, a few minutes each.
CREATE_SOFT_TIME_LIMIT_S = 3600


def sweep_once(arm: Arm | None = None) -> Sweep | None:
    """One pass; None when no subscription is configured. Tests pass the fake's clients."""
    if arm is None:
        if not settings.AZURE_SUBSCRIPTION_ID:
            return None
        with_clients = connect(settings.AZURE_SUBSCRIPTION_ID)
        try:
            return sweep_once(with_clients)
        finally:
            with_clients.close()
    sweep = sweep_expired(arm)
    mark_deleted(sweep.deleted)
    if sweep.deleted or sweep.failed or sweep.unreadable:
        logger.warning(
            "azure.sweep.done",
            extra={
                "deleted": sweep.deleted,
                "failed": sweep.failed,
                "unreadable": sweep.unreadable,
            },
        )
    return sweep


@instrumented_task(
    name=AZURE_JANITOR_TASK,
    queue=MAINTENANCE_QUEUE,
    soft_time_limit=SOFT_TIME_LIMIT_S,
    time_limit=SOFT_TIME_LIMIT_S + 120,
)
def sweep_expired_testbeds() -> None:
    sweep_once()


@instrumented_task(
    name=AZURE_CREATE_LAB_TASK,
    queue=MAINTENANCE_QUEUE,
    soft_time_limit=CREATE_SOFT_TIME_LIMIT_S,
    time_limit=CREATE_SOFT_TIME_LIMIT_S + 300,
)
def create_azure_lab(lab_id: int) -> None:
    create_lab(lab_id)


@instrumented_task(
    name=AZURE_STOP_LAB_TASK,
    queue=MAINTENANCE_QUEUE,
    soft_time_limit=SOFT_TIME_LIMIT_S,
    time_limit=SOFT_TIME_LIMIT_S + 120,
)
def stop_azure_lab(lab_id: int) -> None:
    stop_lab(lab_id)


@instrumented_task(
    name=AZURE_START_LAB_TASK,
    queue=MAINTENANCE_QUEUE,
    soft_time_limit=SOFT_TIME_LIMIT_S,
    time_limit=SOFT_TIME_LIMIT_S + 120,
)
def start_azure_lab(lab_id: int) -> None:
    start_lab(lab_id)


@instrumented_task(
    name=AZURE_DELETE_LAB_TASK,
    queue=MAINTENANCE_QUEUE,
    soft_time_limit=SOFT_TIME_LIMIT_S,
    time_limit=SOFT_TIME_LIMIT_S + 120,
)
def delete_azure_lab(lab_id: int) -> None:
    delete_lab(lab_id)
