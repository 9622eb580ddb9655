"""Testbed helpers: wait for the background key reads of a testbed's hosts, and ports on
127.0.0.1 that answer no SSH (refused, silent, speaking something else) or SSH's key exchange
only."""

import contextlib
import selectors
import socket
import threading
import time
from collections.abc import Iterator
from typing import Any, Protocol

import paramiko


class _Http(Protocol):
    def get(self, url: str) -> Any: ...


UNDER_WAY = ("pinning", "scanning")


def wait_for_scans(http: _Http, testbed_id: int, timeout_s: float = 60) -> list[dict[str, Any]]:
    """The testbed's hosts once no key read is under way (AssertionError after timeout_s).

    The pause between polls grows from 0.05 s to 1 s: a quick read is seen at once, and a long
    wait (silent hosts, each read holding its slot to the timeout) costs a poll a second, not
    ten: each poll is a request that serialises every host, and at 0.1 s the polls alone put
    the 192-host test over the CPU budget on a busy machine (10.3 CPU s in CI, 2026-11-29)."""
    deadline = time.monotonic() + timeout_s
    pause = 0.05
    while True:
        r = http.get(f"/api/v1/testbeds/{testbed_id}")
        assert r.status_code == 200, r.text
        hosts: list[dict[str, Any]] = r.json()["hosts"]
        if not any(h["scan_status"] in UNDER_WAY for h in hosts):
            return hosts
        if time.monotonic() > deadline:
            raise AssertionError(f"key reads still under way after {timeout_s} s: {hosts}")
        time.sleep(pause)
        pause = min(pause * 1.5, 1.0)


def closed_port() -> int:
    """A loopback port nothing listens on (connections are refused)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.contextmanager
def silent_listeners(count: int) -> Iterator[list[int]]:
    """Ports on 127.0.0.1 that accept connections (in the kernel) and never say a word."""
    socks = []
    try:
        for _ in range(count):
            s = socket.socket()
            s.bind(("127.0.0.1", 0))
            s.listen(64)
            socks.append(s)
        yield [int(s.getsockname()[1]) for s in socks]
    finally:
        for s in socks:
            s.close()


@contextlib.contextmanager
def chatty_listener() -> Iterator[int]:
    """A port on 127.0.0.1 that answers every connection with an HTTP error and closes."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(16)
    server.settimeout(0.2)
    stop = threading.Event()

    def serve() -> None:
        while not stop.is_set():
            try:
                conn, _ = server.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            with conn:
                conn.sendall(b"HTTP/1.0 400 Bad Request\r\nContent-Length: 0\r\n\r\n")

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield int(server.getsockname()[1])
    finally:
        stop.set()
        thread.join(5)
        server.close()


SETTLE_S = 0.05


class OpenCount:
    """Connections open at once on a set of listeners: now and at most."""

    def __init__(self) -> None:
        self.now = 0
        self.most = 0
        self.total = 0


@contextlib.contextmanager
def counting_listeners(count: int) -> Iterator[tuple[list[int], OpenCount]]:
    """Silent ports on 127.0.0.1 that accept every connection, never speak, and count how many
    connections are open at once across all of them (until the peer closes)."""
    listeners = []
    for _ in range(count):
        s = socket.socket()
        s.bind(("127.0.0.1", 0))
        s.listen(64)
        s.setblocking(False)
        listeners.append(s)
    stats = OpenCount()
    stop = threading.Event()

    def watch() -> None:
        sel = selectors.DefaultSelector()
        for s in listeners:
            sel.register(s, selectors.EVENT_READ, "listener")
        # "At most" is read SETTLE_S after each accept, not at it: a reader's close sent just
        # before its next connect can reach this thread after that connect (loopback packets of
        # one process on two CPUs; seen once in CI as 3 open with 2 readers). A read really in
        # flight stays open for the whole scan timeout, far longer than SETTLE_S.
        checks: list[float] = []

        def closed(sock: socket.socket) -> bool:
            try:
                data = sock.recv(4096)
            except BlockingIOError:
                return False
            except OSError:
                data = b""
            if data:
                return False
            sel.unregister(sock)
            sock.close()
            stats.now -= 1
            return True

        def count_open() -> None:
            # Every close already sent is taken first (no waiting, no accept): this thread may
            # have lost the CPU for longer than SETTLE_S since the accept (a loaded machine),
            # and connections whose peer closed meanwhile are not open. What is left was open
            # at once when the selector answered.
            while True:
                conns = [key.fileobj for key, _ in sel.select(timeout=0) if key.data == "conn"]
                if not any([closed(c) for c in conns if isinstance(c, socket.socket)]):
                    break
            stats.most = max(stats.most, stats.now)

        while not stop.is_set():
            wait = min([0.1, *(max(0.0, t - time.monotonic()) for t in checks)])
            # Closes before accepts: a reader that closed one connection and opened the
            # next has both pending here, and must not count as two at once.
            ready = sorted(sel.select(timeout=wait), key=lambda e: e[0].data == "listener")
            for key, _ in ready:
                sock = key.fileobj
                assert isinstance(sock, socket.socket)
                if key.data == "listener":
                    conn, _ = sock.accept()
                    conn.setblocking(False)
                    sel.register(conn, selectors.EVENT_READ, "conn")
                    stats.now += 1
                    stats.total += 1
                    checks.append(time.monotonic() + SETTLE_S)
                    continue
                closed(sock)  # the peer gave up: closed
            now = time.monotonic()
            if any(t <= now for t in checks):
                count_open()
                checks = [t for t in checks if t > now]
        if checks:  # accepts whose settle time the stop cut short
            count_open()
        for key in list(sel.get_map().values()):
            sock = key.fileobj
            assert isinstance(sock, socket.socket)
            if key.data == "conn":
                sock.close()
        sel.close()

    thread = threading.Thread(target=watch, daemon=True)
    thread.start()
    try:
        yield [int(s.getsockname()[1]) for s in listeners], stats
    finally:
        stop.set()
        thread.join(5)
        for s in listeners:
            s.close()


@contextlib.contextmanager
def ssh_key_listener() -> Iterator[tuple[int, str]]:
    """A port on 127.0.0.1 that speaks SSH up to the key exchange (paramiko's server side,
    a fresh ECDSA host key; no login is possible): its port and the key line a read gets."""
    key = paramiko.ECDSAKey.generate()
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(16)
    server.settimeout(0.2)
    stop = threading.Event()

    def handshake(conn: socket.socket) -> None:
        transport = paramiko.Transport(conn)
        transport.add_server_key(key)
        try:
            transport.start_server(server=paramiko.ServerInterface())
        except (paramiko.SSHException, EOFError, OSError):
            pass  # the reader closes once it has the key
        finally:
            transport.close()

    def serve() -> None:
        while not stop.is_set():
            try:
                conn, _ = server.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            threading.Thread(target=handshake, args=(conn,), daemon=True).start()

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield int(server.getsockname()[1]), f"{key.get_name()} {key.get_base64()}"
    finally:
        stop.set()
        thread.join(5)
        server.close()
