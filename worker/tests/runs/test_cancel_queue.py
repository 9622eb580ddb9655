"""Issue 41 item 5, through the real Celery worker: after a Cancel of a large experiment whose
messages are all queued, the queue holds none of them, and the next experiment's (short) run
is the first message the worker receives, not the last of a thousand it would only drop."""

import time
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select
from sqlalchemy.orm import Session

from backend.core import queue
from backend.models import Run, RunStatus
from backend.tests.utils.experiment import create_random_experiment
from backend.tests.utils.processes import CeleryWorkerProcess
from worker.tasks.experiments import dispatch_experiment
from worker.tests.utils.experiments import LOCAL_FIXED, SHORTEST_RUN, all_final, wait_for

# What happens to runs, not what their load measures (a cancelled experiment's messages leave the
# queue): run last in the load lane, beside the browser tests (backend/tests/utils/load_lane.py).
pytestmark = [pytest.mark.integration, pytest.mark.load_not_measured]

API = "/api/v1/experiments"
CANCELLED_RUNS = 1_000  # 50 configurations x 20 repetitions: 5 of the background sender's batches


def _executes_logged(worker: CeleryWorkerProcess, settled: int) -> int:
    """Execute-task lines in the worker's log once it holds `settled` (a run is final in the
    database before Celery logs its task as succeeded); bounded: the count then says more."""
    deadline = time.monotonic() + 30
    while True:
        count = worker.log_path.read_text(errors="replace").count("mcscope.runs.execute[")
        if count >= settled or time.monotonic() > deadline:
            return count
        time.sleep(0.2)


@pytest.mark.timeout(600)
def test_the_next_experiment_runs_first_after_a_cancel(
    client: TestClient, db: Session, local_sshd: None, tmp_path: Path
) -> None:
    big = create_random_experiment(
        client,
        factors={"clients_per_thread": list(range(1, 51))},
        fixed=LOCAL_FIXED,
        repetitions=20,
        **SHORTEST_RUN,
    )
    r = client.post(f"{API}/{big['id']}/start")
    assert r.status_code == 202 and r.json()["queued"] == CANCELLED_RUNS, r.text
    dispatch_experiment(big["id"])  # the background sender, here: every message is queued
    run_ids = set(db.scalars(select(Run.id).where(Run.experiment_id == big["id"])))
    assert {i for i, _ in queue.waiting_messages()} >= run_ids

    r = client.post(f"{API}/{big['id']}/cancel")
    assert r.json() == {"cancelled": CANCELLED_RUNS, "stopping": 0}
    assert not run_ids & {i for i, _ in queue.waiting_messages()}

    nxt = create_random_experiment(
        client,
        factors={"clients_per_thread": [2]},
        fixed=LOCAL_FIXED,
        repetitions=1,
        **SHORTEST_RUN,
    )
    assert client.post(f"{API}/{nxt['id']}/start").json()["queued"] == 1
    worker = CeleryWorkerProcess(log_dir=tmp_path)
    worker.start()
    try:
        (run,) = wait_for(db, nxt["id"], all_final, timeout_s=200)
        assert run.status == RunStatus.SUCCEEDED, run.error
        # One message received and done: the worker met none of the cancelled runs' messages.
        assert _executes_logged(worker, settled=2) == 2, worker.log()
    finally:
        worker.stop()
