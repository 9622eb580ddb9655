"""Testbed helpers: wait for the background key reads of a testbed's hosts, and ports on
127.0.0.1 that answer no SSH (refused, silent, speaking something else)."""

import contextlib
import socket
import threading
import time
from collections.abc import Iterator
from typing import Any, Protocol


class _Http(Protocol):
    def get(self, url: str) -> Any: ...


UNDER_WAY = ("pinning", "scanning")


def wait_for_scans(http: _Http, testbed_id: int, timeout_s: float = 60) -> list[dict[str, Any]]:
    """The testbed's hosts once no key read is under way (AssertionError after timeout_s)."""
    deadline = time.monotonic() + timeout_s
    while True:
        r = http.get(f"/api/v1/testbeds/{testbed_id}")
        assert r.status_code == 200, r.text
        hosts: list[dict[str, Any]] = r.json()["hosts"]
        if not any(h["scan_status"] in UNDER_WAY for h in hosts):
            return hosts
        if time.monotonic() > deadline:
            raise AssertionError(f"key reads still under way after {timeout_s} s: {hosts}")
        time.sleep(0.1)


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
