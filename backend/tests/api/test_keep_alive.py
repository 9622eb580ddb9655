"""The API server keeps an idle keep-alive connection for settings.API_KEEP_ALIVE_S."""

import socket
import time
from pathlib import Path

from backend.core.config import Settings
from backend.tests.utils.server import ApiServer

REQUEST = b"GET /api/v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"


def _closed_by_server(s: socket.socket) -> bool:
    s.settimeout(0.05)
    try:
        return s.recv(1) == b""  # an orderly close; data would be a protocol error here
    except TimeoutError:
        return False


def test_an_idle_connection_lives_as_long_as_the_setting(tmp_path: Path) -> None:
    server = ApiServer(tmp_path, MCSCOPE_API_KEEP_ALIVE_S="1").start()
    try:
        with socket.create_connection(("127.0.0.1", server.port)) as s:
            s.sendall(REQUEST)
            assert s.recv(4096).startswith(b"HTTP/1.1 200")
            idle_from = time.monotonic()
            while not _closed_by_server(s):
                assert time.monotonic() - idle_from < 30, "the server never closed it"
            idle = time.monotonic() - idle_from
    finally:
        server.stop()
    # The setting, not uvicorn's 5 s default, closed it; and not at once (the timer starts as
    # the response leaves, a moment before this test reads it).
    assert 0.5 < idle < 5, idle


def test_the_default_outlives_the_clients_idle_limits() -> None:
    # Node's fetch (undici) drops an idle connection after 4 s; uvicorn's own default is 5 s.
    assert Settings().API_KEEP_ALIVE_S > 5
