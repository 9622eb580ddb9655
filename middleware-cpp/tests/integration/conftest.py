"""Fixtures: three real memcached servers and a middleware factory, all stopped by PID."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

# The helpers live beside this file; the folder name (middleware-cpp) is not importable.
sys.path.insert(0, str(Path(__file__).resolve().parent))

from mw_procs import (  # noqa: E402
    Proc,
    memcached,
    memcached_available,
    middleware,
    middleware_bin,
)


@pytest.fixture(scope="module")
def servers() -> Iterator[list[Proc]]:
    """Three memcached processes for the module; flushed by tests that need a clean cache."""
    if not memcached_available():
        pytest.skip("memcached is not installed (apt install memcached)")
    if not middleware_bin().exists():
        pytest.skip(f"middleware binary missing: {middleware_bin()} (run scripts/build.sh)")
    procs = [memcached() for _ in range(3)]
    yield procs
    for p in procs:
        p.stop()


MiddlewareFactory = Callable[..., Proc]


@pytest.fixture
def start_middleware(servers: list[Proc]) -> Iterator[MiddlewareFactory]:
    """Starts middlewares in front of the module's servers; each is stopped after the test,
    and a test fails if its middleware crashed or exited uncleanly."""
    started: list[Proc] = []

    def start(**kwargs: Any) -> Proc:
        ports = kwargs.pop("server_ports", [s.port for s in servers])
        proc = middleware(ports, **kwargs)
        started.append(proc)
        return proc

    yield start
    for proc in started:
        # Tests may stop it themselves (SIGTERM); any exit other than a clean 0 is a failure.
        code = proc.stop()
        assert code == 0, f"middleware exit code {code}:\n{proc.output()[-3000:]}"
