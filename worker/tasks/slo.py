"""The latency-SLO search task: a thin wrapper over worker.runs.slo_search.advance_search."""

from backend.core.queue import MAINTENANCE_QUEUE, SLO_STEP_TASK
from worker.runs.slo_search import advance_search
from worker.tasks.base import instrumented_task


@instrumented_task(
    name=SLO_STEP_TASK,
    queue=MAINTENANCE_QUEUE,
    autoretry_for=(ConnectionError,),
    retry_backoff=True,
    max_retries=5,
    soft_time_limit=300,
    time_limit=360,
)
def slo_step(experiment_id: int) -> None:
    advance_search(experiment_id)
