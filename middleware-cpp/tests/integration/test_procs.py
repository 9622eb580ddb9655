"""The helpers' own rules: a process counts as started only when it listens itself."""

from __future__ import annotations

import socket
from collections.abc import Iterator

import pytest
from mw_procs import HOST, PortTaken, Proc, memcached, memcached_available

from backend.tests.utils import ports


@pytest.fixture
def held_port() -> Iterator[int]:
    """A port another listener (this test's socket) holds, as another suite's server would."""
    with socket.socket() as s:
        s.bind((HOST, 0))
        s.listen()
        yield s.getsockname()[1]


pytestmark = pytest.mark.skipif(not memcached_available(), reason="memcached is not installed")


def test_a_server_that_cannot_bind_is_not_taken_for_the_one_that_answers(held_port: int) -> None:
    with pytest.raises(PortTaken, match=f"port {held_port} taken by another process"):
        memcached(held_port)


def test_a_taken_free_port_is_replaced_by_another(
    held_port: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    taken = iter([held_port])
    real = ports.free_port
    monkeypatch.setattr(ports, "free_port", lambda: next(taken, None) or real())
    proc: Proc = memcached()
    try:
        assert proc.port != held_port and proc.alive()
        with socket.create_connection((HOST, proc.port)) as c:
            c.sendall(b"version\r\n")
            assert c.recv(64).startswith(b"VERSION")
    finally:
        proc.stop()
