"""The run task: a thin wrapper; the work is worker.runs.execute.execute_run."""

import logging
from typing import Any

from celery.signals import task_received

from backend.core.db import SessionLocal
from backend.core.queue import EXECUTE_RUN_TASK, RUNS_QUEUE, enqueue_slo_step
from backend.domain.design_fields import RUN_TASK_TIME_LIMIT_S
from worker.runs import lifecycle
from worker.runs.execute import execute_run as _execute_run_impl
from worker.runs.repetitions import follow_rule
from worker.runs.slo_search import is_search_run
from worker.tasks.base import instrumented_task

logger = logging.getLogger(__name__)

# Retries of one message (testbed busy, transient SSH trouble), with a growing countdown.
# Past them the run stays queued and the recovery task re-sends it later.
MAX_TASK_RETRIES = 20
MAX_COUNTDOWN_S = 120.0
# A backstop for a hung run: below the broker's visibility timeout (6 h), above the longest
# run (design_fields bounds the run time below it, set-up included). The soft limit fails the
# run and cleans up; the hard one kills the process, and recovery re-queues the run.
SOFT_TIME_LIMIT_S = RUN_TASK_TIME_LIMIT_S
TIME_LIMIT_S = SOFT_TIME_LIMIT_S + 600


def _execute_run(run_id: int, dispatch: int | None = None) -> float | None:
    """Plain function tests call without a broker; returns a retry delay or None. A run that
    ended may add its configuration's next repetition (the design's repetition rule)."""
    retry_in = _execute_run_impl(run_id, dispatch)
    if retry_in is None:
        follow_rule(run_id)
    return retry_in


def after_run(run_id: int) -> None:
    """A probe of a latency-SLO search finished: its search takes the next step. A lost
    message is made up by recovery (worker.runs.slo_search.stalled_searches)."""
    experiment_id = is_search_run(run_id)
    if experiment_id is not None:
        enqueue_slo_step(experiment_id)


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
def execute_run(self: Any, run_id: int, dispatch: int | None = None) -> None:
    retry_in = _execute_run(run_id, dispatch)
    if retry_in is None:
        after_run(run_id)
        return
    if self.request.retries >= MAX_TASK_RETRIES:
        logger.warning("run.retries_exhausted", extra={"run_id": run_id})
        return  # still queued: its lease lapses and the recovery task re-sends it
    # A new message (same run and dispatch) is sent; this one is acked. The run stays queued;
    # the worker that receives the retry records itself as its holder until the countdown ends.
    raise self.retry(countdown=countdown(retry_in, self.request.retries))


def _on_received(request: Any, **_: Any) -> None:
    """In the worker's main process, as it takes a run message (also a retry that will wait
    for its countdown there, unacked): record it as the message's holder until it is due."""
    if request.task_name != EXECUTE_RUN_TASK:
        return
    args = list(request.args or [])
    try:
        run_id = int(args[0])
        dispatch = int(args[1]) if len(args) > 1 and args[1] is not None else None
    except (IndexError, TypeError, ValueError):
        return
    try:
        with SessionLocal() as session:
            lifecycle.hold(session, run_id, dispatch, lifecycle.worker_identity(), request.eta)
    except Exception:  # the database is away: the lease stays unrecorded, recovery re-sends
        logger.exception("run.hold_failed", extra={"run_id": run_id})


task_received.connect(_on_received)


# Imported for their tasks: recovery (beat task, start-up hook) and Start's background sender.
import worker.tasks.experiments  # noqa: E402, F401
import worker.tasks.recovery  # noqa: E402, F401
import worker.tasks.slo  # noqa: E402, F401
