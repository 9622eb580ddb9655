"""Fixtures for the worker suites: this test session's own local-testbed sshd, a memcached."""

import os
import shutil
import subprocess
from collections.abc import Iterator

import pytest

from backend.core.config import REPO_ROOT, settings
from backend.tests.utils.ports import start_on_free_port, wait_listening

SSHD = REPO_ROOT / "infra" / "local" / "sshd.sh"


def _sshd(action: str) -> subprocess.CompletedProcess[str]:
    # Port and state dir come from the settings the root conftest set for this session.
    env = {
        **os.environ,
        "SSHD_PORT": str(settings.LOCAL_SSH_PORT),
        "SSHD_DIR": str(settings.LOCAL_SSH_DIR),
    }
    return subprocess.run(
        ["bash", str(SSHD), action],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        env=env,
    )


@pytest.fixture(scope="session")
def local_sshd() -> Iterator[None]:
    """The local testbed's sshd on 127.0.0.1 at this session's port; stopped at the end."""
    started = _sshd("start")
    assert started.returncode == 0, started.stderr
    try:
        yield
    finally:
        _sshd("stop")
        shutil.rmtree(settings.LOCAL_SSH_DIR, ignore_errors=True)


@pytest.fixture()
def memcached() -> Iterator[int]:
    """A memcached of its own on 127.0.0.1 (one thread, 64 MB); its port. Counted as started
    only when it listens itself, not another xdist worker's memcached on the same port
    (backend/tests/utils/ports.py)."""
    as_root = ["-u", "root"] if os.getuid() == 0 else []
    procs: list[subprocess.Popen[bytes]] = []

    def start(port: int) -> int:
        procs.append(
            proc := subprocess.Popen(
                ["memcached", "-l", "127.0.0.1", "-p", str(port), "-t", "1", "-m", "64", *as_root]
            )
        )
        wait_listening(proc, port, timeout_s=10, poll_s=0.05)
        return port

    try:
        yield start_on_free_port(start)
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.terminate()  # by its PID
                proc.wait(timeout=10)
