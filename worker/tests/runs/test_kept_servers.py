"""Servers kept across runs on the local testbed (127.0.0.1, real memcached, middleware and
memtier): every run starts from the same server state, and no memcached or middleware is left
once the runs end, fail or are cancelled (checked by the PIDs the runs recorded). The servers'
lifecycle is the claim, not the load: every run is the shortest (SHORTEST_RUN)."""

from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select
from sqlalchemy.orm import Session

from backend.models import KeptServer, Run, RunStatus
from backend.tests.utils.processes import pid_alive
from worker.parsers import ParseError
from worker.runs.kept import reap_idle
from worker.runs.pipeline import RunExecution
from worker.tasks.runs import _execute_run
from worker.tests.utils.experiments import SHORTEST_RUN, create_queued_experiment, runs_of

pytestmark = pytest.mark.integration

FIXED: dict[str, Any] = {
    "servers": 2,
    "middlewares": 1,
    "workers": 2,
    "ratio": "1:9",
    "value_size": 128,
    "key_maximum": 1000,
    "load_generator": "memtier",
}


def _pids(run: Run, *roles: str) -> list[int]:
    return [int(c["pid"]) for c in run.commands if c["role"] in roles]


def _kept_rows(db: Session) -> list[KeptServer]:
    db.expire_all()
    return list(db.scalars(select(KeptServer)))


def test_repetitions_share_servers_and_start_from_the_same_state(
    db: Session, local_sshd: None
) -> None:
    exp, run_ids = create_queued_experiment(
        db, factors={"clients_per_thread": [1, 2]}, fixed=FIXED, repetitions=2, **SHORTEST_RUN
    )
    for run_id in run_ids:  # repetition-major: c0 r0, c1 r0, c0 r1, c1 r1
        assert _execute_run(run_id) is None
    runs = runs_of(db, exp.id)
    assert [(r.status, r.error) for r in runs] == [(RunStatus.SUCCEEDED, None)] * 4
    first = sorted(_pids(runs[0], "server"))
    for run in runs:
        assert sorted(_pids(run, "server")) == first  # the same two memcached processes
        kept = [c.get("kept", False) for c in run.commands if c["role"] == "server"]
        assert kept == [run is not runs[0]] * 2
        # Flushed and populated again: the same items and bytes as after the first populate.
        state = run.hosts["server_state"]
        assert {s["kept"] for s in state.values()} == {run is not runs[0]}
        assert [(s["curr_items"], s["bytes"]) for s in state.values()] == [
            (1000, runs[0].hosts["server_state"][name]["bytes"]) for name in state
        ]
        assert "populate" in [c["role"] for c in run.commands]
    # The last run had no next one: everything stopped, nothing left to take.
    assert _kept_rows(db) == []
    every = [p for r in runs for p in _pids(r, "server", "middleware", "client", "populate")]
    assert every and not any(pid_alive(p) for p in every)


def test_servers_kept_for_cancelled_runs_are_stopped(
    client: TestClient, db: Session, local_sshd: None
) -> None:
    exp, run_ids = create_queued_experiment(
        db, factors={"clients_per_thread": [2]}, fixed=FIXED, repetitions=2, **SHORTEST_RUN
    )
    assert _execute_run(run_ids[0]) is None
    (done, _) = runs_of(db, exp.id)
    assert done.status == RunStatus.SUCCEEDED, done.error
    servers = _pids(done, "server")
    assert len(_kept_rows(db)) == 2 and all(pid_alive(p) for p in servers)
    assert not any(pid_alive(p) for p in _pids(done, "middleware", "client"))

    r = client.post(f"/api/v1/experiments/{exp.id}/cancel")
    assert r.json() == {"cancelled": 1, "stopping": 0}
    # The recovery task's pass stops what no run took (here at once: idle 0 s).
    assert reap_idle(db, idle_s=0) == 2
    assert _kept_rows(db) == [] and not any(pid_alive(p) for p in servers)


def test_a_failed_run_stops_the_servers_it_took_over(
    db: Session, local_sshd: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    exp, run_ids = create_queued_experiment(
        db, factors={"clients_per_thread": [2]}, fixed=FIXED, repetitions=3, **SHORTEST_RUN
    )
    assert _execute_run(run_ids[0]) is None
    assert len(_kept_rows(db)) == 2

    def broken(*_: object) -> None:
        raise ParseError("damaged output")

    monkeypatch.setattr(RunExecution, "parse", broken)
    assert _execute_run(run_ids[1]) is None
    first, failed, _ = runs_of(db, exp.id)
    assert failed.status == RunStatus.FAILED and "damaged output" in (failed.error or "")
    # It took the kept servers over (and would have kept them for run 3), then failed.
    assert sorted(_pids(failed, "server")) == sorted(_pids(first, "server"))
    assert _kept_rows(db) == []
    every = _pids(first, "server", "middleware") + _pids(failed, "server", "middleware")
    assert not any(pid_alive(p) for p in every)
