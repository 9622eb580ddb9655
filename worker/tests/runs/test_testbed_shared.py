"""Issue 30, in one process with real processes on the local testbed: a run whose testbed had
another attempt's process during its load is not stored (re-queued saying why); a run does not
start while another attempt's worker may still be executing there (busy), and starts once that
attempt is over, after stopping the process it left (by its work directory); a dead worker's
processes are stopped, the testbed's kept servers are not."""

import os
import signal
import socket
import subprocess
import tempfile
import threading

import pytest
from sqlalchemy import func, select, update
from sqlalchemy.orm import Session

from backend.models import KeptServer, RunAttempt, RunStatus, RunSummary
from backend.tests.utils.processes import pid_alive
from worker.drivers.host import Host
from worker.runs import attempts
from worker.runs.context import command_entry, host_entry
from worker.runs.execute import BUSY_RETRY_S, TRANSIENT_RETRY_S
from worker.runs.lifecycle import worker_identity
from worker.runs.testbed import local_host, local_testbed
from worker.tasks.runs import _execute_run
from worker.tests.utils.experiments import (
    LOCAL_FIXED,
    create_queued_experiment,
    in_load_phase,
    runs_of,
    wait_for,
)

# What happens to runs, not what their load measures (a testbed another attempt used is not
# trusted): run last in the load lane, beside the browser tests (backend/tests/utils/load_lane.py).
pytestmark = [pytest.mark.integration, pytest.mark.load_not_measured]


@pytest.mark.timeout(300)
def test_disturbed_run_is_not_stored_and_waits_for_the_intruder(
    db: Session, local_sshd: None
) -> None:
    exp, (run_id,) = create_queued_experiment(
        # 4 s: the intruder must arrive while the load runs (found by polling twice a second).
        db,
        factors={"clients_per_thread": [1]},
        fixed=LOCAL_FIXED,
        run_time_s=4,
    )
    result: list[float | None] = []
    worker = threading.Thread(target=lambda: result.append(_execute_run(run_id)))
    worker.start()
    host = Host(local_host())
    intruder_pid = None
    try:
        wait_for(db, exp.id, lambda rs: in_load_phase(rs) is not None, timeout_s=120)
        # Another attempt on the same testbed during the load (what a worker taken for dead
        # while it still runs does): its row, then a process in its work directory.
        workdir = tempfile.mkdtemp(prefix="mcscope-intruder-")
        intruder = RunAttempt(
            run_id=None,
            attempt=1,
            testbed_key=0,
            workdir=workdir,
            hosts=[host_entry(local_host())],
            worker=worker_identity(),  # this test process: alive
        )
        db.add(intruder)
        db.commit()
        intruder_pid = host.start(["sleep", "600"], workdir, "intruder").pid
        worker.join(120)
        assert not worker.is_alive()
        (run,) = runs_of(db, exp.id)
        assert result == [TRANSIENT_RETRY_S]
        assert run.status == RunStatus.QUEUED and run.error is not None, run.error
        assert "testbed local was disturbed" in run.error
        assert "run None attempt 1" in run.error
        assert db.scalar(select(func.count()).where(RunSummary.run_id == run_id)) == 0

        # The intruder's worker is alive: the run waits, its process is left alone.
        assert _execute_run(run_id) == BUSY_RETRY_S
        assert pid_alive(intruder_pid)
        (run,) = runs_of(db, exp.id)
        assert (run.status, run.attempt) == (RunStatus.QUEUED, 1)
        assert run.error is not None and run.error.startswith("waiting: run None attempt 1")

        # Its worker is done with it but left the process: the run stops it, then runs.
        db.execute(
            update(RunAttempt)
            .where(RunAttempt.id == intruder.id)
            .values(finished_at=func.clock_timestamp())
        )
        db.commit()
        assert _execute_run(run_id) is None
        assert not pid_alive(intruder_pid)
        (run,) = runs_of(db, exp.id)
        assert (run.status, run.attempt) == (RunStatus.SUCCEEDED, 2), run.error
        assert (db.scalar(select(func.count()).where(RunSummary.run_id == run_id)) or 0) > 0
        db.expire_all()
        cleared = db.scalar(select(RunAttempt.cleared_at).where(RunAttempt.id == intruder.id))
        assert cleared is not None
    finally:
        worker.join(120)
        host.close()
        if intruder_pid is not None and pid_alive(intruder_pid):
            os.kill(intruder_pid, signal.SIGKILL)


def test_clear_testbed_stops_a_dead_workers_processes_but_not_kept_servers(
    db: Session, local_sshd: None
) -> None:
    host = Host(local_host())
    workdir = tempfile.mkdtemp(prefix="mcscope-dead-attempt-")
    client = host.start(["sleep", "600"], workdir, "client-0")
    server = host.start(["sleep", "600"], workdir, "server-0")  # kept for the next run
    dead = subprocess.Popen(["true"])
    dead.wait()  # a worker process that has died (and been reaped)
    row = RunAttempt(
        run_id=None,
        attempt=1,
        testbed_key=0,
        workdir=workdir,
        hosts=[host_entry(local_host())],
        worker=f"{socket.gethostname()}:{dead.pid}",
    )
    kept = KeptServer(testbed_key=0, identity="x", command=command_entry("server", "s", server))
    db.add_all([row, kept])
    db.commit()
    try:
        assert attempts.clear_testbed(db, local_testbed()) == 1
        assert not pid_alive(client.pid)
        assert pid_alive(server.pid)
        db.expire_all()
        assert row.cleared_at is not None and row.finished_at is not None
        assert attempts.clear_testbed(db, local_testbed()) == 0  # nothing left to clear
    finally:
        db.delete(kept)
        db.commit()
        host.close()
        for pid in (client.pid, server.pid):
            if pid_alive(pid):
                os.kill(pid, signal.SIGKILL)
