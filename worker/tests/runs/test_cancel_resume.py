"""Cancel stops a running run's remote processes; starting again resumes only unfinished runs."""

import threading

import pytest
from fastapi.testclient import TestClient
from sqlalchemy.orm import Session

from backend.models import RunStatus
from backend.tests.utils.processes import pid_alive
from worker.tasks.runs import _execute_run
from worker.tests.utils.experiments import (
    SHORTEST_RUN,
    create_queued_experiment,
    in_load_phase,
    wait_for,
)

# What happens to runs, not what their load measures (Cancel stops a run's processes, Start resumes
# the rest): run last in the load lane, beside the browser tests (backend/tests/utils/load_lane.py).
pytestmark = [pytest.mark.integration, pytest.mark.load_not_measured]


def test_cancel_stops_processes_and_start_resumes(
    client: TestClient, db: Session, local_sshd: None
) -> None:
    exp, (run_id,) = create_queued_experiment(
        db,
        factors={"clients_per_thread": [2]},
        fixed={
            "servers": 1,
            "middlewares": 1,
            "ratio": "1:9",
            "value_size": 128,
            "key_maximum": 1000,
            "load_generator": "memaslap",
        },
        run_time_s=30,
    )
    worker = threading.Thread(target=_execute_run, args=(run_id,))
    worker.start()
    try:
        runs = wait_for(db, exp.id, lambda rs: in_load_phase(rs) is not None, timeout_s=120)
        r = client.post(f"/api/v1/experiments/{exp.id}/cancel")
        assert r.status_code == 200 and r.json() == {"cancelled": 0, "stopping": 1}
    finally:
        worker.join(120)
    assert not worker.is_alive()
    (run,) = wait_for(db, exp.id, lambda rs: rs[0].status != RunStatus.RUNNING, timeout_s=5)
    assert run.status == RunStatus.CANCELLED and run.error is not None
    assert "cancel" in run.error
    pids = [c["pid"] for c in runs[0].commands]
    assert pids and not any(pid_alive(p) for p in pids)
    assert run.finished_at is not None and run.started_at is not None
    assert (run.finished_at - run.started_at).total_seconds() < 30  # stopped, not run out

    r = client.post(f"/api/v1/experiments/{exp.id}/start")
    assert r.status_code == 202 and r.json()["queued"] == 1
    # The resumed run is the shortest: its claim is the second attempt, not the load.
    for field, value in SHORTEST_RUN.items():
        setattr(exp, field, value)
    db.merge(exp)
    db.commit()
    assert _execute_run(run_id) is None
    (run,) = wait_for(db, exp.id, lambda rs: True, timeout_s=1)
    assert run.status == RunStatus.SUCCEEDED, run.error
    assert run.attempt == 2
    r = client.post(f"/api/v1/experiments/{exp.id}/start")
    assert r.json() == {"queued": 0, "already_done": 1, "unsent": 0}
