"""Pipelined batches (one worker, many requests at once) when a server restarts or dies mid-way."""

from __future__ import annotations

import signal
from collections.abc import Iterator

import pytest
from mw_client import connect, read_exactly, request, set_cmd, value_block
from mw_procs import Proc, memcached

from conftest import MiddlewareFactory

pytestmark = pytest.mark.integration

BATCH = 40  # more than one worker batch (16), all pipelined on one connection


@pytest.fixture
def two_servers() -> Iterator[list[Proc]]:
    """Two memcached processes of the test's own, so killing one disturbs no other test."""
    procs = [memcached(), memcached()]
    yield procs
    for p in procs:
        p.stop()


def read_replies(port: int, data: bytes, count: int) -> list[bytes]:
    """Sends data on one connection and reads count replies, each ending in END or a line."""
    replies: list[bytes] = []
    with connect(port) as s:
        s.sendall(data)
        buf = b""
        while len(replies) < count:
            chunk = s.recv(65536)
            assert chunk, f"connection closed after {len(replies)} replies"
            buf += chunk
            while True:
                end = reply_end(buf)
                if end == 0:
                    break
                replies.append(buf[:end])
                buf = buf[end:]
    return replies


def reply_end(buf: bytes) -> int:
    """Length of the first complete get reply (VALUE blocks then END, or one error line)."""
    if buf.startswith((b"SERVER_ERROR", b"END")):
        nl = buf.find(b"\r\n")
        return 0 if nl < 0 else nl + 2
    end = buf.find(b"\r\nEND\r\n")
    return 0 if end < 0 else end + len(b"\r\nEND\r\n")


def test_restarted_server_is_retried_for_a_whole_batch(
    start_middleware: MiddlewareFactory, two_servers: list[Proc]
) -> None:
    port = two_servers[0].port
    mw = start_middleware(server_ports=[port], workers=1)
    assert request(mw.port, set_cmd("kb", b"old"), 8) == b"STORED\r\n"  # opens the connection
    two_servers[0].stop(signal.SIGKILL)
    two_servers[0] = memcached(port)
    assert request(port, set_cmd("kb", b"new"), 8) == b"STORED\r\n"  # straight to memcached
    # The worker's connection is stale: the pipelined batch fails before any reply byte, so
    # every request of it is served again on a fresh connection, none gets SERVER_ERROR.
    got = read_replies(mw.port, b"get kb\r\n" * BATCH, BATCH)
    assert got == [value_block("kb", b"new") + b"END\r\n"] * BATCH


def test_dead_server_fails_only_its_requests_in_order(
    start_middleware: MiddlewareFactory, two_servers: list[Proc]
) -> None:
    ports = [p.port for p in two_servers]
    mw = start_middleware(server_ports=ports, workers=1, replication=1)
    keys = [f"kd:{i}" for i in range(BATCH)]
    with connect(mw.port) as s:
        s.sendall(b"".join(set_cmd(k, k.encode()) for k in keys))
        assert read_exactly(s, 8 * BATCH) == b"STORED\r\n" * BATCH
    on_first = {k for k in keys if request(ports[0], f"get {k}\r\n".encode(), 5) != b"END\r\n"}
    assert 0 < len(on_first) < BATCH  # the keys spread over both servers
    two_servers[1].stop(signal.SIGKILL)
    got = read_replies(mw.port, b"".join(f"get {k}\r\n".encode() for k in keys), BATCH)
    for k, reply in zip(keys, got, strict=True):
        if k in on_first:
            assert reply == value_block(k, k.encode()) + b"END\r\n"
        else:
            assert reply.startswith(b"SERVER_ERROR"), (k, reply)
