"""The helpers' own rules: a process counts as started only when it listens itself."""

from __future__ import annotations

import socket
from collections.abc import Iterator

import pytest
from mw_procs import Proc, memcached, memcached_available

from backend.tests.utils import ports
from backend.tests.utils.ports import HOST, PortTaken


@pytest.fixture
def held_port() -> Iterator[int]:
    with ports.listening_port() as port:
        yield port


pytestmark = pytest.mark.skipif(not memcached_available(), reason="memcached is not installed")


def test_a_server_that_cannot_bind_is_not_taken_for_the_one_that_answers(held_port: int) -> None:
    with pytest.raises(PortTaken, match=f"port {held_port} taken by another process"):
        memcached(held_port)


def test_a_taken_free_port_is_replaced_by_another(
    held_port: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(ports, "free_port", ports.handing_out_first(held_port))
    proc: Proc = memcached()
    try:
        assert proc.port != held_port and proc.alive()
        with socket.create_connection((HOST, proc.port)) as c:
            c.sendall(b"version\r\n")
            assert c.recv(64).startswith(b"VERSION")
    finally:
        proc.stop()
