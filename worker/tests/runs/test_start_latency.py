"""Start means start: on an idle worker, the first run is claimed from the message Start sent,
with no wait before it (no retry countdown, no message re-sent by recovery), through the real
Celery worker on the local testbed. The latency (Start to claim, Start to the load) is printed:
the project keeps timing thresholds out of tests."""

import re
import time
from datetime import UTC, datetime

import pytest
from fastapi.testclient import TestClient
from sqlalchemy.orm import Session

from backend.models import Run, RunStatus
from backend.tests.utils.experiment import create_random_experiment
from backend.tests.utils.processes import CeleryWorkerProcess
from worker.tests.utils.experiments import LOCAL_FIXED, SHORTEST_RUN, all_final, wait_for

pytestmark = pytest.mark.integration

# What a wait before a run looks like in the worker's log: Celery's retry with a countdown,
# the testbed found busy, a message dropped as stale (its run re-sent meanwhile).
WAITING = re.compile(r"Retry in|retry:|testbed_busy|run\.stale_message|run\.not_claimed")


def _load_start(run: Run) -> float:
    return min(float(c["started_unix"]) for c in run.commands if c["role"] == "client")


def _log_after(worker: CeleryWorkerProcess, offset: int, settled: int) -> str:
    """The worker's log from `offset` once it holds `settled` task lines: a run is final in
    the database before Celery logs its task as succeeded (bounded: the assertions then say
    what is missing)."""
    deadline = time.monotonic() + 30
    while True:
        log = worker.log_path.read_bytes()[offset:].decode(errors="replace")
        if log.count("mcscope.runs.execute[") >= settled or time.monotonic() > deadline:
            return log
        time.sleep(0.2)


def _start_and_measure(client: TestClient, db: Session, worker: CeleryWorkerProcess) -> None:
    exp = create_random_experiment(
        client,
        factors={"clients_per_thread": [2]},
        fixed=LOCAL_FIXED,
        repetitions=2,
        **SHORTEST_RUN,  # the test is about the start, not the load
    )
    log_before = len(worker.log_path.read_bytes())
    pressed = datetime.now(UTC)
    r = client.post(f"/api/v1/experiments/{exp['id']}/start")
    assert r.status_code == 202, r.text
    assert r.json() == {"queued": 2, "already_done": 0, "unsent": 0}
    first, second = wait_for(db, exp["id"], all_final, timeout_s=200)
    log = _log_after(worker, log_before, settled=2 * 2)

    assert (first.status, second.status) == (RunStatus.SUCCEEDED, RunStatus.SUCCEEDED)
    # Claimed at the first try of the message Start sent: attempt 1 of dispatch 1.
    assert (first.attempt, first.dispatch) == (1, 1), (first.attempt, first.dispatch)
    assert first.started_at is not None and first.started_at >= pressed
    # One message received per run, none of them retried or waiting.
    assert log.count("mcscope.runs.execute[") == 2 * 2, log  # received + succeeded
    assert WAITING.search(log) is None, log
    claim_s = (first.started_at - pressed).total_seconds()
    load_s = _load_start(first) - pressed.timestamp()
    print(
        f"start latency: claim {claim_s:.3f} s, load {load_s:.3f} s after Start "
        f"(phases {first.phase_timings})"
    )


@pytest.mark.timeout(600)
def test_first_run_is_claimed_from_starts_message_without_waiting(
    client: TestClient, db: Session, local_sshd: None, celery_worker: CeleryWorkerProcess
) -> None:
    # A fresh worker's first experiment, then one on the worker idle after it.
    _start_and_measure(client, db, celery_worker)
    _start_and_measure(client, db, celery_worker)
