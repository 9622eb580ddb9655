"""Azure testbeds' tasks, on their own queue (AZURE_QUEUE, a worker of their own: they poll ARM
for minutes). Each body is one call into the engine (backend/azure/): creating a lab recorded
in the database (lab_creation), stopping, starting and deleting one (lab_power), deleting a
group the user confirmed (resource_groups), and the janitor every AZURE_JANITOR_EVERY_S
(janitor), told of the runs it ends through the worker's live events."""

from backend.azure import janitor
from backend.azure.lab_creation import create_lab
from backend.azure.lab_power import delete_lab, start_lab, stop_lab
from backend.azure.resource_groups import delete_untracked
from backend.core.queue import (
    AZURE_CREATE_LAB_TASK,
    AZURE_DELETE_GROUP_TASK,
    AZURE_DELETE_LAB_TASK,
    AZURE_JANITOR_TASK,
    AZURE_QUEUE,
    AZURE_START_LAB_TASK,
    AZURE_STOP_LAB_TASK,
)
from worker.live import publish
from worker.tasks.base import instrumented_task

# Deleting a resource group takes minutes on Azure; the deletions run side by side.
SOFT_TIME_LIMIT_S = 1800
# Creating a lab: VMs are created one after another, a few minutes each.
CREATE_SOFT_TIME_LIMIT_S = 3600


@instrumented_task(
    name=AZURE_JANITOR_TASK,
    queue=AZURE_QUEUE,
    soft_time_limit=SOFT_TIME_LIMIT_S,
    time_limit=SOFT_TIME_LIMIT_S + 120,
)
def sweep_expired_testbeds() -> None:
    janitor.sweep_once(announce=publish.run_state)


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


@instrumented_task(
    name=AZURE_DELETE_GROUP_TASK,
    queue=AZURE_QUEUE,
    soft_time_limit=SOFT_TIME_LIMIT_S,
    time_limit=SOFT_TIME_LIMIT_S + 120,
)
def delete_azure_group(resource_group: str) -> None:
    delete_untracked(resource_group)
