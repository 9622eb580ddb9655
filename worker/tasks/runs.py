"""The run task: claim the run, execute it, record how it ended."""

import logging

from backend.core.db import SessionLocal
from backend.core.queue import EXECUTE_RUN_TASK, RUNS_QUEUE
from backend.models import RunStatus
from worker.runs.lifecycle import claim_run, finish_run
from worker.tasks.base import instrumented_task

logger = logging.getLogger(__name__)


def _execute_run(run_id: int) -> None:
    with SessionLocal() as session:
        if not claim_run(session, run_id):
            return
        logger.info("run.started", extra={"run_id": run_id})
        # Wiring only: the experiment pipeline (servers, middleware, load generators)
        # plugs in here; until then a claimed run is closed straight away.
        finish_run(session, run_id, RunStatus.SUCCEEDED)


@instrumented_task(name=EXECUTE_RUN_TASK, queue=RUNS_QUEUE)
def execute_run(run_id: int) -> None:
    _execute_run(run_id)
