"""Fixtures for the worker suites: the project's local sshd (started if needed, stopped only
if we started it) and helpers to create and start experiments through the API."""

import subprocess
from collections.abc import Iterator

import pytest

from backend.core.config import REPO_ROOT

SSHD = REPO_ROOT / "infra" / "local" / "sshd.sh"


def _sshd(action: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["bash", str(SSHD), action], capture_output=True, text=True, timeout=60, check=False
    )


@pytest.fixture(scope="session")
def local_sshd() -> Iterator[None]:
    """The local testbed's sshd on 127.0.0.1:2222."""
    was_running = _sshd("status").returncode == 0
    if not was_running:
        started = _sshd("start")
        assert started.returncode == 0, started.stderr
    try:
        yield
    finally:
        if not was_running:
            _sshd("stop")
