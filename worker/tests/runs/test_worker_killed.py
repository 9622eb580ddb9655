"""Issue 5 acceptance: the worker is killed mid-experiment; a new worker finishes it and every
run is stored exactly once, with the dead attempt's remote processes stopped."""

import os
import signal

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from backend.models import RunStatus, RunSummary
from backend.tests.utils.experiment import create_random_experiment
from backend.tests.utils.processes import CeleryWorkerProcess, pid_alive
from worker.tests.utils.experiments import all_final, in_load_phase, wait_for

# What happens to runs, not what their load measures (a killed worker's runs are finished once, its
# processes stopped): run last in the load lane, beside the browser tests
# (backend/tests/utils/load_lane.py).
pytestmark = [pytest.mark.integration, pytest.mark.load_not_measured]


@pytest.mark.timeout(600)  # above its two waits, so a timeout reports the runs' states and logs
def test_worker_killed_mid_experiment_completes_once(
    client: TestClient, db: Session, local_sshd: None, tmp_path_factory: pytest.TempPathFactory
) -> None:
    exp = create_random_experiment(
        client,
        factors={"clients_per_thread": [2]},
        fixed={
            "servers": 2,
            "middlewares": 1,
            "workers": 8,
            "ratio": "1:9",
            "value_size": 128,
            "key_maximum": 2000,
            "load_generator": "memaslap",
        },
        # Recovery, not the load: two runs (the victim and one other), the API's shortest.
        repetitions=2,
        run_time_s=5,
        warmup_s=1,
        cooldown_s=1,
    )
    assert client.post(f"/api/v1/experiments/{exp['id']}/start").json()["queued"] == 2
    log_dir = tmp_path_factory.mktemp("killed-worker")
    first = CeleryWorkerProcess(log_dir=log_dir)
    first.start()
    try:
        runs = wait_for(db, exp["id"], lambda rs: in_load_phase(rs) is not None, timeout_s=120)
        victim = in_load_phase(runs)
        assert victim is not None
        first.kill()
    finally:
        first.stop()
    left_behind = [c["pid"] for c in victim.commands if c["role"] in ("server", "middleware")]
    assert any(pid_alive(p) for p in left_behind)  # the dead attempt's processes linger

    second = CeleryWorkerProcess(log_dir=log_dir)
    second.start()
    try:
        runs = wait_for(db, exp["id"], all_final, timeout_s=300)
    except AssertionError as exc:
        logs = f"first worker:\n{first.log()}\nsecond worker:\n{second.log()}"
        raise AssertionError(f"{exc}\n{logs}") from None
    finally:
        second.stop()
        stopped_by_test = [p for p in left_behind if pid_alive(p)]
        for pid in stopped_by_test:  # a failed recovery must not leave them running
            os.kill(pid, signal.SIGKILL)
    assert [r.status for r in runs] == [RunStatus.SUCCEEDED] * 2, [r.error for r in runs]
    rerun = next(r for r in runs if r.id == victim.id)
    assert rerun.attempt == 2
    assert stopped_by_test == []  # recovery stopped them
    # Exactly one summary per run, source and request type; the same set for every run.
    counts = db.execute(
        select(RunSummary.run_id, RunSummary.source, RunSummary.request_type, func.count())
        .where(RunSummary.run_id.in_([r.id for r in runs]))
        .group_by(RunSummary.run_id, RunSummary.source, RunSummary.request_type)
    ).all()
    assert counts and all(n == 1 for *_, n in counts)
    # The host's network interfaces are the machine's, not the run's: another process may add
    # one between two runs (a test beside this one made a namespace host's veth, CI
    # 2026-11-29). Every other series is the run's own and must be there in both; each run
    # measured some interface.
    per_run = {
        r.id: {(s, t) for rid, s, t, _ in counts if rid == r.id and not s.startswith("net:")}
        for r in runs
    }
    assert all(any(s.startswith("net:") for rid, s, *_ in counts if rid == r.id) for r in runs)
    # On failure: what each run has that the other lacks, and each run's attempt and windows.
    first_run, other_run = (per_run[r.id] for r in runs)
    assert first_run == other_run, (
        sorted(first_run - other_run),
        sorted(other_run - first_run),
        [(r.id, r.attempt, r.phase_timings) for r in runs],
    )
    assert ("client:0", "all") in per_run[victim.id]
