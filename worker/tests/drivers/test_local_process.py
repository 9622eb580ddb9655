"""The liveness rule of local processes: a zombie is gone (the cause of a recovery that missed a
killed worker's run, whose pool process init had not reaped yet)."""

import shutil
import socket
import subprocess
import time
from pathlib import Path

from backend.core.processes import owner_dead
from worker.drivers.local_process import pid_running


def _state(pid: int) -> str:
    return Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0]


def _wait_for_state(pid: int, state: str, timeout_s: float = 10) -> None:
    deadline = time.monotonic() + timeout_s
    while _state(pid) != state:
        assert time.monotonic() < deadline, f"pid {pid} never reached state {state}"
        time.sleep(0.01)


def test_a_running_process_runs() -> None:
    proc = subprocess.Popen(["sleep", "30"])
    try:
        assert pid_running(proc.pid)
        assert not owner_dead(f"{socket.gethostname()}:{proc.pid}")
    finally:
        proc.kill()
        proc.wait()
    assert not pid_running(proc.pid)  # reaped


def test_a_zombie_is_gone_and_its_run_orphaned() -> None:
    proc = subprocess.Popen(["true"])
    try:
        _wait_for_state(proc.pid, "Z")  # exited; not reaped, since we have not waited
        assert not pid_running(proc.pid)
        assert owner_dead(f"{socket.gethostname()}:{proc.pid}")
    finally:
        proc.wait()


def test_a_command_name_with_a_parenthesis_and_state_letters(tmp_path: Path) -> None:
    sleep = shutil.which("sleep")
    assert sleep
    odd = tmp_path / "x) Z y"  # /proc/<pid>/stat shows it as "(x) Z y) S ..."
    shutil.copy(sleep, odd)
    proc = subprocess.Popen([str(odd), "30"])
    try:
        _wait_for_state(proc.pid, "S")
        assert pid_running(proc.pid)
    finally:
        proc.kill()
        proc.wait()


def test_another_hosts_worker_is_never_judged_here() -> None:
    proc = subprocess.Popen(["true"])
    proc.wait()
    assert not owner_dead(f"not-{socket.gethostname()}:{proc.pid}")
    assert owner_dead(f"{socket.gethostname()}:{proc.pid}")
