"""Runs never stuck (issue 17, part 3), on the local testbed with real processes: the heartbeat
goes on through stop/fetch/parse, a lost testbed lock ends the attempt, disk full while
archiving fails the run and keeps the raw files on the host."""

import subprocess
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import text
from sqlalchemy.orm import Session

from backend.core.db import SessionLocal
from backend.models import RunStatus
from backend.tests.utils.processes import pid_alive
from worker.runs import context, heartbeat, recovery
from worker.runs.execute import TRANSIENT_RETRY_S
from worker.runs.pipeline import RunExecution
from worker.runs.testbed import LOCK_NAMESPACE
from worker.tasks.runs import _execute_run
from worker.tests.utils.experiments import (
    LOCAL_FIXED,
    SHORTEST_RUN,
    create_queued_experiment,
    in_load_phase,
    runs_of,
    wait_for,
)

pytestmark = pytest.mark.integration

FIXED = LOCAL_FIXED


def test_long_stop_fetch_parse_keeps_the_heartbeat(
    db: Session, local_sshd: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A fetch lasting several stale periods (as 150 s against the 120 s of production, scaled
    down) while recovery runs: the run is not re-queued and succeeds in its first attempt."""
    monkeypatch.setattr(heartbeat, "HEARTBEAT_EVERY_S", 0.2)
    monkeypatch.setattr(recovery, "STALE_AFTER_S", 2)
    exp, (run_id,) = create_queued_experiment(
        db, factors={"clients_per_thread": [1]}, fixed=FIXED, **SHORTEST_RUN
    )
    requeued: list[int] = []
    fetch = RunExecution.fetch_all

    def slow_fetch(self: RunExecution) -> None:
        deadline = time.monotonic() + 3 * recovery.STALE_AFTER_S
        while time.monotonic() < deadline:
            with SessionLocal() as session:
                requeued.extend(recovery.recover_orphaned_runs(session, lambda ids: None))
            time.sleep(0.3)
        fetch(self)

    monkeypatch.setattr(RunExecution, "fetch_all", slow_fetch)
    assert _execute_run(run_id) is None
    (run,) = runs_of(db, exp.id)
    assert run_id not in requeued
    assert (run.status, run.attempt) == (RunStatus.SUCCEEDED, 1), run.error
    assert set(run.phase_timings) >= {"preflight", "start", "run", "stop", "fetch", "store"}


def test_lost_testbed_lock_ends_the_attempt(
    db: Session, local_sshd: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The lock's PostgreSQL session ends mid-run (what a PostgreSQL restart does): the attempt
    stops its processes and the run is re-queued for a later attempt, saying why."""
    monkeypatch.setattr(heartbeat, "HEARTBEAT_EVERY_S", 0.2)
    exp, (run_id,) = create_queued_experiment(
        # Long enough to be running when the lock goes; it ends the attempt early.
        db,
        factors={"clients_per_thread": [1]},
        fixed=FIXED,
        run_time_s=30,
    )
    result: list[float | None] = []
    worker = threading.Thread(target=lambda: result.append(_execute_run(run_id)))
    worker.start()
    try:
        runs = wait_for(db, exp.id, lambda rs: in_load_phase(rs) is not None, timeout_s=120)
        killed = db.scalars(
            text(
                "SELECT pg_terminate_backend(pid) FROM pg_locks WHERE locktype = 'advisory' "
                "AND classid = :ns AND objid = 0 AND database = "
                "(SELECT oid FROM pg_database WHERE datname = current_database())"
            ),
            {"ns": LOCK_NAMESPACE},
        ).all()
        db.commit()
        assert killed == [True]
    finally:
        worker.join(120)
    assert not worker.is_alive()
    (run,) = runs_of(db, exp.id)
    assert result == [TRANSIENT_RETRY_S]
    assert run.status == RunStatus.QUEUED and run.error is not None
    assert "lost the testbed's lock" in run.error
    pids = [c["pid"] for c in runs[0].commands]
    assert pids and not any(pid_alive(p) for p in pids)


@pytest.fixture()
def full_disk(tmp_path: Path) -> Iterator[Path]:
    """A real file system with no space left (a tiny tmpfs, filled up)."""
    mnt = tmp_path / "full"
    mnt.mkdir()
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(mnt)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert mounted.returncode == 0, f"this test mounts a tmpfs (needs root): {mounted.stderr}"
    try:
        try:
            with (mnt / "filler").open("wb") as f:
                while True:
                    f.write(b"x" * 4096)
                    f.flush()
        except OSError:  # ENOSPC: full
            pass
        yield mnt
    finally:
        subprocess.run(["umount", str(mnt)], check=False)


def test_disk_full_while_archiving_fails_and_keeps_raw_files_on_host(
    db: Session, local_sshd: None, monkeypatch: pytest.MonkeyPatch, full_disk: Path
) -> None:
    monkeypatch.setattr(context, "run_archive_dir", lambda run_id: full_disk / str(run_id))
    exp, (run_id,) = create_queued_experiment(
        db, factors={"clients_per_thread": [1]}, fixed=FIXED, **SHORTEST_RUN
    )
    assert _execute_run(run_id) is None  # not retried: a full disk is not a host problem
    (run,) = runs_of(db, exp.id)
    assert (run.status, run.attempt) == (RunStatus.FAILED, 1)
    assert run.error is not None and "disk full while archiving" in run.error
    workdir = Path(run.commands[0]["workdir"])
    assert "raw files kept on local" in run.error and str(workdir) in run.error
    try:
        assert (workdir / "client-0.out").stat().st_size > 0
    finally:
        subprocess.run(["rm", "-rf", str(workdir), f"{workdir}.fetch.tgz"], check=False)
