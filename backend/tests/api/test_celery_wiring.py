"""The Celery wiring, end to end: API -> Redis -> a real worker process -> PostgreSQL."""

import time
from collections.abc import Callable

from fastapi.testclient import TestClient
from sqlalchemy.orm import Session

from backend.tests.utils.experiment import create_random_experiment
from backend.tests.utils.processes import CeleryWorkerProcess

API = "/api/v1/experiments"


def _wait_for(predicate: Callable[[], bool], timeout_s: float = 60) -> bool:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.2)
    return False


def test_real_worker_runs_every_queued_run(
    client: TestClient, db: Session, celery_worker: CeleryWorkerProcess
) -> None:
    exp = create_random_experiment(client)
    r = client.post(f"{API}/{exp['id']}/start")
    assert r.status_code == 200 and r.json() == {"queued": 8, "already_done": 0}

    def all_done() -> bool:
        return client.get(f"{API}/{exp['id']}").json()["status"] == "finished"

    assert _wait_for(all_done), celery_worker.log()
    runs = client.get(f"{API}/{exp['id']}/runs").json()
    assert runs["count"] == 8
    assert {(r["configuration_id"], r["repetition"]) for r in runs["data"]}.__len__() == 8
    for run in runs["data"]:
        assert run["status"] == "succeeded" and run["attempt"] == 1
        assert run["worker"] and run["started_at"] <= run["finished_at"]
    # Starting again queues nothing: every run is done.
    assert client.post(f"{API}/{exp['id']}/start").json() == {"queued": 0, "already_done": 8}
