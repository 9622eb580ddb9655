"""Enqueueing work for the Celery worker by task name: the API imports no task code."""

from celery import Celery

from backend.core.config import settings

EXECUTE_RUN_TASK = "mcscope.runs.execute"
RUNS_QUEUE = settings.RUNS_QUEUE

producer = Celery("mcscope-api", broker=settings.REDIS_URL)
producer.conf.broker_connection_retry_on_startup = True
producer.conf.broker_transport_options = {"max_retries": 3}


def enqueue_runs(run_ids: list[int]) -> None:
    """Send one execute task per run. Call only after the runs are committed."""
    for run_id in run_ids:
        producer.send_task(EXECUTE_RUN_TASK, args=[run_id], queue=RUNS_QUEUE)
