"""Rehearsal testbeds' tasks, on the maintenance queue (its worker runs on the machine the
namespace hosts are built on; a build or teardown takes seconds): build one, tear one down,
and the janitor's pass (worker.rehearsal)."""

from backend.core.queue import (
    MAINTENANCE_QUEUE,
    REHEARSAL_BUILD_TASK,
    REHEARSAL_DELETE_TASK,
    REHEARSAL_SWEEP_TASK,
)
from worker.rehearsal import janitor
from worker.rehearsal.lifecycle import (
    TESTBED_DELETED,
    build_rehearsal,
    delete_rehearsal,
)
from worker.tasks.base import instrumented_task

# Each host takes about a second (namespace, veth, sshd); MCSCOPE_REHEARSAL_MAX_HOSTS of them.
SOFT_TIME_LIMIT_S = 300


@instrumented_task(
    name=REHEARSAL_BUILD_TASK,
    queue=MAINTENANCE_QUEUE,
    soft_time_limit=SOFT_TIME_LIMIT_S,
    time_limit=SOFT_TIME_LIMIT_S + 60,
)
def build(rehearsal_id: int) -> None:
    build_rehearsal(rehearsal_id)


@instrumented_task(
    name=REHEARSAL_DELETE_TASK,
    queue=MAINTENANCE_QUEUE,
    soft_time_limit=SOFT_TIME_LIMIT_S,
    time_limit=SOFT_TIME_LIMIT_S + 60,
)
def delete(rehearsal_id: int) -> None:
    delete_rehearsal(rehearsal_id, TESTBED_DELETED)


@instrumented_task(
    name=REHEARSAL_SWEEP_TASK,
    queue=MAINTENANCE_QUEUE,
    soft_time_limit=SOFT_TIME_LIMIT_S,
    time_limit=SOFT_TIME_LIMIT_S + 60,
)
def sweep() -> None:
    janitor.sweep_once()
