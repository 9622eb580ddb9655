"""The run task: a thin wrapper; the work is worker.runs.execute.execute_run."""

import logging
from typing import Any

from backend.core.queue import EXECUTE_RUN_TASK, RUNS_QUEUE
from worker.runs.execute import execute_run as _execute_run_impl
from worker.tasks.base import instrumented_task

logger = logging.getLogger(__name__)


def _execute_run(run_id: int) -> float | None:
    """Plain function tests call without a broker; returns a retry delay or None."""
    return _execute_run_impl(run_id)


@instrumented_task(name=EXECUTE_RUN_TASK, queue=RUNS_QUEUE, bind=True, max_retries=None)
def execute_run(self: Any, run_id: int) -> None:
    retry_in = _execute_run(run_id)
    if retry_in is not None:
        # A new message is sent; this one is acked. The run stays queued meanwhile.
        raise self.retry(countdown=retry_in)


# Imported for its signal handlers (crash recovery when a worker starts).
import worker.tasks.recovery  # noqa: E402, F401
