"""Proving an attempt's processes gone (worker.drivers.sweep) with real processes on 127.0.0.1
over the local sshd: found by working directory or by recorded PID and start time, stopped
(SIGKILL when SIGTERM is ignored), waited for; a PID whose start time differs is never
signalled, excluded PIDs (kept servers) are left running."""

import os
import signal
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from backend.tests.utils.processes import pid_alive
from worker.drivers.host import Host, RemoteProcess
from worker.drivers.sweep import sweep

# Reaches the test hosts but runs no load on them: with the load-free tests (conftest.py).
pytestmark = [pytest.mark.integration, pytest.mark.hosts_without_load]

SLEEP = ["sleep", "600"]
# Ignores SIGTERM (the disposition survives exec), as a hung tool might.
STUBBORN = ["sh", "-c", "trap '' TERM; exec sleep 600"]


@pytest.fixture()
def started() -> Iterator[list[RemoteProcess]]:
    """Processes a test starts; whatever is left is killed by PID at the end."""
    procs: list[RemoteProcess] = []
    yield procs
    for proc in procs:
        if pid_alive(proc.pid):
            os.kill(proc.pid, signal.SIGKILL)


def _workdir() -> str:
    return tempfile.mkdtemp(prefix="mcscope-sweep-")


def _start(
    host: Host, argv: list[str], workdir: str, started: list[RemoteProcess]
) -> RemoteProcess:
    proc = host.start(argv, workdir, f"p{len(started)}")
    started.append(proc)
    return proc


def _ticks(pid: int) -> int:
    return int(Path(f"/proc/{pid}/stat").read_text().rpartition(") ")[2].split()[19])


def test_start_records_the_kernel_start_time(host: Host, started: list[RemoteProcess]) -> None:
    proc = _start(host, SLEEP, _workdir(), started)
    assert proc.start_ticks is not None and proc.start_ticks == _ticks(proc.pid)


def test_sweep_stops_every_process_of_the_workdir(host: Host, started: list[RemoteProcess]) -> None:
    attempt, other = _workdir(), _workdir()
    polite = _start(host, SLEEP, attempt, started)
    stubborn = _start(host, STUBBORN, attempt, started)
    bystander = _start(host, SLEEP, other, started)
    # The attempt's directory is gone (cleanup ran) while its processes still run.
    host.run(f"rm -rf {attempt}")
    swept = sweep(host, [attempt], [], set(), grace_s=0.5)
    assert {polite.pid, stubborn.pid} <= set(swept.found)
    assert bystander.pid not in swept.found
    assert swept.left == []
    assert not pid_alive(polite.pid) and not pid_alive(stubborn.pid)
    assert pid_alive(bystander.pid)
    # Nothing left: a second sweep finds nothing.
    assert sweep(host, [attempt], [], set(), grace_s=0.5).found == []


def test_sweep_stops_recorded_pids_only_while_they_are_the_same_process(
    host: Host, started: list[RemoteProcess]
) -> None:
    # An adopted kept server lives in an older attempt's directory: found by its record.
    adopted = _start(host, SLEEP, _workdir(), started)
    reused = _start(host, SLEEP, _workdir(), started)
    assert adopted.start_ticks is not None and reused.start_ticks is not None
    # A record whose start time is not the running process's: the PID was reused.
    swept = sweep(
        host,
        [],
        [(adopted.pid, adopted.start_ticks), (reused.pid, reused.start_ticks - 1)],
        set(),
        grace_s=0.5,
    )
    assert swept.found == [adopted.pid] and swept.left == []
    assert not pid_alive(adopted.pid)
    assert pid_alive(reused.pid)


def test_sweep_leaves_excluded_pids_running(host: Host, started: list[RemoteProcess]) -> None:
    attempt = _workdir()
    kept = _start(host, SLEEP, attempt, started)
    kept_before = _start(host, SLEEP, attempt, started)  # recorded without a start time
    client = _start(host, SLEEP, attempt, started)
    exclude = {(kept.pid, kept.start_ticks), (kept_before.pid, None)}
    swept = sweep(host, [attempt], [], exclude, grace_s=0.5)
    assert client.pid in swept.found
    assert kept.pid not in swept.found and kept_before.pid not in swept.found
    assert pid_alive(kept.pid) and pid_alive(kept_before.pid) and not pid_alive(client.pid)
    # A kept server's PID with another start time is not that server: it is stopped.
    assert kept.start_ticks is not None
    swept = sweep(host, [attempt], [], {(kept.pid, kept.start_ticks + 1)}, grace_s=0.5)
    assert kept.pid in swept.found and not pid_alive(kept.pid)
