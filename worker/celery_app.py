"""The Celery application: Redis broker, late acks, one task at a time per worker process.

Three consumers: the run worker (runs queue, concurrency 1), the maintenance worker with the
beat scheduler embedded (`-B`), which runs the periodic recovery and Start's background sender
while runs are going on, and the Azure worker (runs.azure queue: creating, deleting and the
janitor, minutes of ARM polling each, so recovery never waits behind them).
"""

from celery import Celery

from backend.core.config import settings
from backend.core.queue import (
    AZURE_JANITOR_TASK,
    AZURE_QUEUE,
    MAINTENANCE_QUEUE,
    RECOVER_TASK,
    REHEARSAL_SWEEP_TASK,
    RUNS_QUEUE,
)

# A run can last an hour (stability trace) plus set-up; an unacked task is redelivered only
# after this, so it must exceed the longest run or a live run would be started twice.
VISIBILITY_TIMEOUT_S = 6 * 3600

app = Celery(
    "mcscope",
    broker=settings.REDIS_URL,
    include=[
        "worker.tasks.runs",
        "worker.tasks.azure",
        "worker.tasks.testbeds",
        "worker.tasks.rehearsals",
    ],
)
app.conf.update(
    task_acks_late=True,
    task_reject_on_worker_lost=True,
    worker_prefetch_multiplier=1,
    task_default_queue=RUNS_QUEUE,
    task_ignore_result=True,
    broker_connection_retry_on_startup=True,
    broker_transport_options={"visibility_timeout": VISIBILITY_TIMEOUT_S},
    worker_hijack_root_logger=False,
    beat_schedule={
        "recover-runs": {
            "task": RECOVER_TASK,
            "schedule": settings.RECOVERY_EVERY_S,
            "options": {"queue": MAINTENANCE_QUEUE, "expires": settings.RECOVERY_EVERY_S},
        },
        # Expired Azure testbeds: deleted even when nobody remembers them (no-op without
        # MCSCOPE_AZURE_SUBSCRIPTION_ID).
        "sweep-expired-azure-testbeds": {
            "task": AZURE_JANITOR_TASK,
            "schedule": settings.AZURE_JANITOR_EVERY_S,
            "options": {"queue": AZURE_QUEUE, "expires": settings.AZURE_JANITOR_EVERY_S},
        },
        # Expired rehearsals and dead workers' builds torn down (worker.rehearsal.janitor).
        "sweep-rehearsals": {
            "task": REHEARSAL_SWEEP_TASK,
            "schedule": settings.REHEARSAL_SWEEP_EVERY_S,
            "options": {"queue": MAINTENANCE_QUEUE, "expires": settings.REHEARSAL_SWEEP_EVERY_S},
        },
    },
)
