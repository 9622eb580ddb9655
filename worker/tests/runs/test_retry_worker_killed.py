"""Issue 30: a run waiting on a countdown retry (testbed busy: the test holds the testbed's
lock) when its worker is SIGKILLed. The retry's message stays unacked in Redis for the
visibility timeout (6 h); the run must not wait for it: recovery re-sends it within a
recovery period, and Start of the stuck experiment queues it."""

import time
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from sqlalchemy.orm import Session

from backend.core.queue import waiting_messages
from backend.models import RunStatus
from backend.tests.utils.experiment import create_random_experiment
from backend.tests.utils.processes import CeleryWorkerProcess
from worker.runs import lock as testbed
from worker.runs.testbed import local_testbed
from worker.tests.utils.experiments import (
    LOCAL_FIXED,
    SHORTEST_RUN,
    all_final,
    runs_of,
    wait_for,
)

# What happens to runs, not what their load measures (a retry lost with its worker is re-sent
# (within a bound far above a run)): run last in the load lane, beside the browser tests
# (backend/tests/utils/load_lane.py).
pytestmark = [pytest.mark.integration, pytest.mark.load_not_measured]

API = "/api/v1/experiments"
# Short periods, so that the bound below is a few of them (production: 20 s, 30 s, 30 s).
ENV = {
    "MCSCOPE_RECOVERY_EVERY_S": "1",
    "MCSCOPE_RESEND_AFTER_S": "2",
    "MCSCOPE_LEASE_GRACE_S": "5",
}
# From the new worker's start to the run's success: start-up, recovery, the run (2 s of load).
BOUND_S = 60


def _received(worker: CeleryWorkerProcess) -> int:
    log = worker.log_path.read_text(errors="replace")
    return sum(
        1 for line in log.splitlines() if "mcscope.runs.execute[" in line and "received" in line
    )


def _kill_while_waiting_retry(client: TestClient, db: Session, log_dir: Path) -> int:
    """Start a one-run experiment while the testbed is busy, let a real worker take its retry
    (waiting for the countdown, unacked), SIGKILL that worker; returns the experiment id."""
    exp = create_random_experiment(
        client,
        factors={"clients_per_thread": [1]},
        fixed=LOCAL_FIXED,
        repetitions=1,
        **SHORTEST_RUN,  # the claim is the recovery, not the load
    )
    with testbed.testbed_lock(local_testbed().lock_key) as lock:
        assert lock.acquired
        r = client.post(f"{API}/{exp['id']}/start")
        assert r.status_code == 202 and r.json()["queued"] == 1, r.text
        first = CeleryWorkerProcess(log_dir=log_dir, env=ENV)
        first.start()
        try:
            deadline = time.monotonic() + 60
            (run,) = runs_of(db, exp["id"])
            # The first delivery found the testbed busy; the second is its retry, which the
            # worker keeps until the countdown (5 s) ends; and no message of the run is left
            # in the queue (the retry is the one the worker holds, not one another worker
            # could take: once, in CI, the run finished without recovery's resend).
            while (
                _received(first) < 2
                or "Retry in" not in first.log()
                or any(run_id == run.id for run_id, _ in waiting_messages())
            ):
                assert time.monotonic() < deadline, f"no retry taken: {first.log()}"
                time.sleep(0.1)
            first.kill()
        finally:
            first.stop()
    (run,) = runs_of(db, exp["id"])
    assert (run.status, run.attempt) == (RunStatus.QUEUED, 0)
    return int(exp["id"])


@pytest.mark.timeout(300)
def test_killed_worker_waiting_on_a_retry_is_recovered(
    client: TestClient, db: Session, local_sshd: None, tmp_path: Path
) -> None:
    experiment_id = _kill_while_waiting_retry(client, db, tmp_path)
    second = CeleryWorkerProcess(log_dir=tmp_path, env=ENV)
    beat = CeleryWorkerProcess(log_dir=tmp_path, beat=True, env=ENV)
    second.start()
    beat.start()
    try:
        runs = wait_for(db, experiment_id, all_final, timeout_s=BOUND_S)
    except AssertionError as exc:
        raise AssertionError(f"{exc}\nworker:\n{second.log()}\nbeat:\n{beat.log()}") from None
    finally:
        beat.stop()
        second.stop()
    (run,) = runs
    assert (run.status, run.attempt) == (RunStatus.SUCCEEDED, 1), run.error
    logs = second.log_path.read_text() + beat.log_path.read_text()
    assert "recovery.resend" in logs  # re-sent by recovery, not redelivered by the broker


@pytest.mark.timeout(300)
def test_start_of_a_stuck_experiment_queues_its_stuck_run(
    client: TestClient, db: Session, local_sshd: None, tmp_path: Path
) -> None:
    experiment_id = _kill_while_waiting_retry(client, db, tmp_path)
    r = client.post(f"{API}/{experiment_id}/start")
    assert r.status_code == 202, r.text
    assert r.json() == {"queued": 1, "already_done": 0, "unsent": 0}
    (run,) = runs_of(db, experiment_id)
    assert (run.id, run.dispatch) in waiting_messages()  # a new message, sent by Start
    second = CeleryWorkerProcess(log_dir=tmp_path, env=ENV)
    second.start()
    try:
        runs = wait_for(db, experiment_id, all_final, timeout_s=BOUND_S)
    finally:
        second.stop()
    (run,) = runs
    assert (run.status, run.attempt) == (RunStatus.SUCCEEDED, 1), run.error
