"""Fixtures for the worker suites: this test session's own local-testbed sshd, a memcached."""

import os
import shutil
import subprocess
import time
from collections.abc import Iterator

import pytest

from backend.core.config import REPO_ROOT, settings
from backend.tests.utils.ports import Listener, free_port, listener

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
    """A memcached of its own on 127.0.0.1 (one thread, 64 MB); its port."""
    port = free_port()
    as_root = ["-u", "root"] if os.getuid() == 0 else []
    proc = subprocess.Popen(
        ["memcached", "-l", "127.0.0.1", "-p", str(port), "-t", "1", "-m", "64", *as_root]
    )
    try:
        # Its own listener, not another xdist worker's memcached on the same port
        # (backend/tests/utils/ports.py).
        for _ in range(200):
            if listener(proc.pid, port) is Listener.OURS or proc.poll() is not None:
                break
            time.sleep(0.05)
        assert listener(proc.pid, port) is Listener.OURS, f"memcached did not listen on {port}"
        yield port
    finally:
        proc.terminate()  # by its PID
        proc.wait(timeout=10)
