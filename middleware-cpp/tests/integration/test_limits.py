"""Limits: reply size cap, malformed server replies, client idle/write timeouts, connection cap."""

from __future__ import annotations

import select
import socket
import threading
from collections.abc import Iterator

import pytest
from mw_client import connect, read_exactly, read_until_closed, request, set_cmd, value_block
from mw_procs import HOST

from conftest import MiddlewareFactory

pytestmark = pytest.mark.integration


class FakeServer:
    """A 'memcached' answering every request line with a fixed (malformed) reply."""

    def __init__(self, reply: bytes) -> None:
        self.reply = reply
        self.sock = socket.create_server((HOST, 0))
        self.port: int = self.sock.getsockname()[1]
        self.conns: list[socket.socket] = []
        threading.Thread(target=self.serve, daemon=True).start()

    def serve(self) -> None:
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            self.conns.append(conn)
            threading.Thread(target=self.answer, args=(conn,), daemon=True).start()

    def answer(self, conn: socket.socket) -> None:
        buf = b""
        try:
            while chunk := conn.recv(65536):
                buf += chunk
                while b"\r\n" in buf:
                    _, buf = buf.split(b"\r\n", 1)
                    conn.sendall(self.reply)
        except OSError:
            return

    def close(self) -> None:
        self.sock.close()
        for c in self.conns:
            c.close()


@pytest.fixture
def fake_server(request: pytest.FixtureRequest) -> Iterator[FakeServer]:
    server = FakeServer(request.param)
    yield server
    server.close()


def read_line(s: socket.socket) -> bytes:
    line = b""
    while not line.endswith(b"\r\n"):
        chunk = s.recv(1)
        assert chunk, f"closed after {line!r}"
        line += chunk
    return line


@pytest.mark.parametrize(
    ("fake_server", "reason"),
    [
        # SIZE_MAX: line_len + bytes + 2 wraps around
        (b"VALUE k 0 18446744073709551615\r\n", b"reply too large"),
        # wraps to exactly the line's length: looked like a complete block
        (b"VALUE k 0 18446744073709551614\r\nxEND\r\n", b"reply too large"),
        # far beyond the cap: refused at once, not awaited until the timeout
        (b"VALUE k 0 99999999999\r\n" + b"x" * 65536, b"reply too large"),
        (b"VALUE k 0 5\r\nabcdefgh\r\nEND\r\n", b"malformed reply"),  # data too long
        (b"VALUE k 0 zz\r\n", b"malformed reply"),
    ],
    indirect=["fake_server"],
)
def test_malformed_server_replies_fail_the_request_only(
    start_middleware: MiddlewareFactory, fake_server: FakeServer, reason: bytes
) -> None:
    mw = start_middleware(server_ports=[fake_server.port], workers=1)
    with connect(mw.port) as s:
        for _ in range(3):  # the one worker is not stuck: every request gets its answer
            s.sendall(b"get k\r\n")
            line = read_line(s)
            assert line.startswith(b"SERVER_ERROR 127.0.0.1:"), line
            assert line.endswith(b" " + reason + b"\r\n"), line
        s.sendall(b"bogus\r\n")
        assert read_line(s) == b"ERROR\r\n"


def test_reply_over_the_cap_is_a_server_error(
    start_middleware: MiddlewareFactory, servers: list[object]
) -> None:
    mw = start_middleware(workers=1, extra=["--max-reply-bytes", "2048"])
    big, small = b"b" * 4096, b"s" * 100
    assert request(mw.port, set_cmd("cap:big", big), 8) == b"STORED\r\n"
    assert request(mw.port, set_cmd("cap:small", small), 8) == b"STORED\r\n"
    with connect(mw.port) as s:
        s.sendall(b"get cap:big\r\n")
        assert read_line(s).endswith(b" reply too large\r\n")
        s.sendall(b"get cap:small\r\n")  # the next request reconnects at once
        want = value_block("cap:small", small) + b"END\r\n"
        assert read_exactly(s, len(want)) == want


def test_idle_client_is_closed_and_an_active_one_is_not(
    start_middleware: MiddlewareFactory,
) -> None:
    mw = start_middleware(extra=["--client-idle-timeout-ms", "300"])
    idle = connect(mw.port)
    active = connect(mw.port)
    try:
        # The active client asks something every 50 ms until the idle one has been closed.
        for _ in range(600):
            active.sendall(b"version\r\n")
            assert read_line(active).startswith(b"VERSION ")
            if select.select([idle], [], [], 0.05)[0]:
                break
        assert idle.recv(1) == b""  # closed by the middleware, having sent nothing
        active.sendall(b"version\r\n")
        assert read_line(active).startswith(b"VERSION ")
    finally:
        idle.close()
        active.close()


def test_client_that_never_reads_is_closed_after_the_write_timeout(
    start_middleware: MiddlewareFactory,
) -> None:
    mw = start_middleware(extra=["--client-write-timeout-ms", "300"])
    value = b"w" * 400_000
    assert request(mw.port, set_cmd("wt:big", value), 8) == b"STORED\r\n"
    # A small window from the handshake on: the kernel then buffers little of what the
    # middleware writes (set after connect, about 4 MB got buffered and took 100 s to drain).
    stuck = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    stuck.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    stuck.settimeout(10)
    stuck.connect((HOST, mw.port))
    try:
        stuck.sendall(b"get wt:big\r\n" * 40)  # 16 MB of replies it never reads
        # The middleware gives up on it: its socket closes (reset, or FIN after what fit).
        with connect(mw.port) as other:
            other.sendall(b"version\r\n")
            assert read_line(other).startswith(b"VERSION ")

        def closed() -> bool:
            try:
                return read_until_closed(stuck, timeout=30) is not None
            except ConnectionResetError:
                return True

        assert closed()
    finally:
        stuck.close()


def test_connection_cap_flag(start_middleware: MiddlewareFactory) -> None:
    mw = start_middleware(extra=["--max-connections", "1"])
    first = connect(mw.port)
    first.sendall(b"version\r\n")
    assert read_line(first).startswith(b"VERSION ")
    waiting = connect(mw.port)  # completes in the listen backlog, not served yet
    waiting.sendall(b"version\r\n")
    waiting.settimeout(0.5)
    with pytest.raises(TimeoutError):
        waiting.recv(1)
    first.close()  # a slot frees: the waiting client is accepted and answered
    waiting.settimeout(10)
    assert read_line(waiting).startswith(b"VERSION ")
    waiting.close()
