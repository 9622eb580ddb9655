"""The network bound's byte counts (backend/analysis/wire_bytes.py) against the sockets: each
memcached sits behind a relay counting the bytes each way, the test client counts its own,
and a set and K-key multi-gets (sharded or not) go through the real middleware with `-r`, as
mcscope starts it."""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator

import pytest
from mw_client import connect, read_exactly
from mw_procs import HOST, Proc

from backend.analysis.network_bound import design_sizes
from backend.analysis.wire_bytes import get_replies_b, get_requests_b
from backend.tests.utils.memcached_text import (
    get_line,
    get_reply,
    memtier_key,
    set_request,
    shards,
    value,
)
from conftest import MiddlewareFactory

pytestmark = pytest.mark.integration

VALUE_SIZE = 4096
KEY_MAXIMUM = 99_999  # keys memtier-1xxxx: all as long as the range's longest


class CountingRelay:
    """Forwards one listening port to a memcached, counting bytes to it and from it."""

    def __init__(self, target_port: int) -> None:
        self.target_port = target_port
        self.to_server = 0
        self.from_server = 0
        self._lock = threading.Lock()
        self._socks: list[socket.socket] = []
        self._listener = socket.create_server((HOST, 0))
        self.port: int = self._listener.getsockname()[1]
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                down, _ = self._listener.accept()
            except OSError:
                return  # closed
            up = socket.create_connection((HOST, self.target_port))
            self._socks += [down, up]
            threading.Thread(target=self._pipe, args=(down, up, True), daemon=True).start()
            threading.Thread(target=self._pipe, args=(up, down, False), daemon=True).start()

    def _pipe(self, src: socket.socket, dst: socket.socket, to_server: bool) -> None:
        try:
            while chunk := src.recv(65536):
                with self._lock:
                    if to_server:
                        self.to_server += len(chunk)
                    else:
                        self.from_server += len(chunk)
                dst.sendall(chunk)
        except OSError:
            pass
        for s in (src, dst):
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    def counts(self) -> tuple[int, int]:
        with self._lock:
            return self.to_server, self.from_server

    def close(self) -> None:
        self._listener.close()
        for s in self._socks:
            s.close()


@pytest.fixture
def relays(servers: list[Proc]) -> Iterator[list[CountingRelay]]:
    made = [CountingRelay(s.port) for s in servers]
    yield made
    for r in made:
        r.close()


def _through(
    relays: list[CountingRelay], client: socket.socket, request: bytes, reply_b: int
) -> tuple[bytes, list[tuple[int, int]]]:
    """One request and its whole reply; each relay's bytes to and from its server meanwhile.
    The middleware has the servers' replies before it answers: the counts are complete."""
    before = [r.counts() for r in relays]
    client.sendall(request)
    reply = read_exactly(client, reply_b)
    after = [r.counts() for r in relays]
    return reply, [(a[0] - b[0], a[1] - b[1]) for a, b in zip(after, before, strict=True)]


@pytest.mark.parametrize(("k", "sharded"), [(1, True), (3, False), (3, True), (9, True)])
def test_bytes_on_the_sockets(
    relays: list[CountingRelay], start_middleware: MiddlewareFactory, k: int, sharded: bool
) -> None:
    # The relays are made first so that the middleware stops before they close.
    servers = len(relays)
    mw = start_middleware(
        server_ports=[r.port for r in relays], sharded=sharded, replication=servers
    )
    sizes = design_sizes(VALUE_SIZE, KEY_MAXIMUM)
    data = value(VALUE_SIZE)
    keys = [memtier_key(10_000 + 37 * i + k) for i in range(k)]
    with connect(mw.port) as c:
        for key in keys:  # R = S: every server stores every key, no get misses
            request = set_request(key, data)
            assert len(request) == sizes.set_request_b
            reply, moved = _through(relays, c, request, sizes.set_reply_b)
            assert reply == b"STORED\r\n"
            assert moved == [(sizes.set_request_b, sizes.set_reply_b)] * servers
        line = get_line(keys)
        expect = get_reply(keys, data)
        reply, moved = _through(relays, c, line, len(expect))
        assert reply == expect
    asked = [m for m in moved if m != (0, 0)]
    lines = len(asked)
    # One server without sharding (or for one key), else those the keys hash to.
    assert lines == (len(shards(keys, servers)) if sharded else 1)
    assert len(line) == get_requests_b(sizes, k)  # the client's upload
    assert len(reply) == get_replies_b(sizes, k)  # the middleware's to the client
    assert sum(m[0] for m in asked) == get_requests_b(sizes, k, lines=lines)
    assert sum(m[1] for m in asked) == get_replies_b(sizes, k, ends=lines)
