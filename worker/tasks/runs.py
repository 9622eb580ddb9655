"""The run task: a thin wrapper; the work is worker.runs.execute.execute_run."""

import logging
from typing import Any

from backend.core.queue import EXECUTE_RUN_TASK, RUNS_QUEUE
from worker.runs.execute import execute_run as _execute_run_impl
from worker.tasks.base import instrumented_task

logger = logging.getLogger(__name__)

# Retries of one message (testbed busy, transient SSH trouble), with a growing countdown.
# Past them the run stays queued and the recovery task re-sends it later.
MAX_TASK_RETRIES = 20
MAX_COUNTDOWN_S = 120.0
# A backstop for a hung run: below the broker's visibility timeout (6 h), above the longest
# run (a 1 h stability trace plus set-up). The soft limit fails the run and cleans up; the hard
# one kills the process, and recovery re-queues the run.
SOFT_TIME_LIMIT_S = 4 * 3600
TIME_LIMIT_S = SOFT_TIME_LIMIT_S + 600


def _execute_run(run_id: int) -> float | None:
    """Plain function tests call without a broker; returns a retry delay or None."""
    return _execute_run_impl(run_id)


def countdown(base_s: float, retries: int) -> float:
    """Exponential back-off from base_s, capped at MAX_COUNTDOWN_S."""
    return float(min(base_s * 2 ** min(retries, 10), MAX_COUNTDOWN_S))


@instrumented_task(
    name=EXECUTE_RUN_TASK,
    queue=RUNS_QUEUE,
    bind=True,
    max_retries=MAX_TASK_RETRIES,
    soft_time_limit=SOFT_TIME_LIMIT_S,
    time_limit=TIME_LIMIT_S,
)
def execute_run(self: Any, run_id: int) -> None:
    retry_in = _execute_run(run_id)
    if retry_in is None:
        return
    if self.request.retries >= MAX_TASK_RETRIES:
        logger.warning("run.retries_exhausted", extra={"run_id": run_id})
        return  # still queued: the recovery task re-sends it
    # A new message is sent; this one is acked. The run stays queued meanwhile.
    raise self.retry(countdown=countdown(retry_in, self.request.retries))


# Imported for its beat task and start-up hook (recovery).
import worker.tasks.recovery  # noqa: E402, F401
