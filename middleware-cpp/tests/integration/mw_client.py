"""Raw-socket memcached helpers for pipelining, fragmentation and garbage tests."""

from __future__ import annotations

import socket
import time

from mw_procs import HOST


def connect(port: int, timeout: float = 10.0) -> socket.socket:
    s = socket.create_connection((HOST, port), timeout=timeout)
    s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    return s


def read_exactly(s: socket.socket, n: int) -> bytes:
    """Reads n bytes or raises (timeout or early close)."""
    buf = b""
    while len(buf) < n:
        chunk = s.recv(n - len(buf))
        if not chunk:
            raise ConnectionError(f"closed after {len(buf)} of {n} bytes: {buf[-200:]!r}")
        buf += chunk
    return buf


def read_until_closed(s: socket.socket, timeout: float = 10.0) -> bytes:
    s.settimeout(timeout)
    buf = b""
    while True:
        chunk = s.recv(65536)
        if not chunk:
            return buf
        buf += chunk


def request(port: int, data: bytes, expect: int) -> bytes:
    """Sends data on a fresh connection and reads exactly expect bytes of replies."""
    with connect(port) as s:
        s.sendall(data)
        return read_exactly(s, expect)


def value_block(key: str, value: bytes, flags: int = 0) -> bytes:
    return f"VALUE {key} {flags} {len(value)}\r\n".encode() + value + b"\r\n"


def set_cmd(key: str, value: bytes, flags: int = 0) -> bytes:
    return f"set {key} {flags} 0 {len(value)}\r\n".encode() + value + b"\r\n"


def get_direct(port: int, key: str) -> bytes | None:
    """Reads key straight from a memcached server (bypassing the middleware)."""
    with connect(port) as s:
        s.sendall(f"get {key}\r\n".encode())
        buf = b""
        while not buf.endswith(b"END\r\n"):
            chunk = s.recv(65536)
            if not chunk:
                break
            buf += chunk
    if buf == b"END\r\n":
        return None
    header, _, rest = buf.partition(b"\r\n")
    length = int(header.split()[3])
    return rest[:length]


def wait_for(predicate: object, timeout: float = 10.0) -> bool:
    """Polls a zero-argument callable until it returns truthy."""
    assert callable(predicate)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.05)
    return False
