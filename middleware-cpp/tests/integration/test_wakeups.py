"""Worker wake-ups: with many idle workers, a request wakes at most one of them."""

from __future__ import annotations

import re

import pytest
from mw_client import connect, read_exactly, set_cmd

from conftest import MiddlewareFactory

pytestmark = pytest.mark.integration

REQUESTS = 400


def wakeups(output: str) -> tuple[int, int]:
    """(wake-ups, requests dequeued) from the line the middleware logs at shutdown."""
    m = re.search(r"worker wake-ups: (\d+) for (\d+) requests dequeued", output)
    assert m is not None, output[-2000:]
    return int(m.group(1)), int(m.group(2))


def test_one_client_wakes_at_most_one_worker_per_request(
    start_middleware: MiddlewareFactory,
) -> None:
    mw = start_middleware(workers=64)
    with connect(mw.port) as s:
        for i in range(REQUESTS // 2):  # one request at a time, as a closed-loop client
            s.sendall(set_cmd(f"w{i}", b"v"))
            assert read_exactly(s, 8) == b"STORED\r\n"
            s.sendall(f"get w{i}\r\n".encode())
            want = f"VALUE w{i} 0 1\r\nv\r\nEND\r\n".encode()
            assert read_exactly(s, len(want)) == want
    assert mw.stop() == 0
    woken, dequeued = wakeups(mw.output())
    assert dequeued == REQUESTS
    assert woken <= dequeued, f"{woken} wake-ups for {dequeued} requests"


def test_pipelined_requests_share_wake_ups(start_middleware: MiddlewareFactory) -> None:
    mw = start_middleware(workers=64)
    with connect(mw.port) as s:
        s.sendall(b"version\r\n" * REQUESTS)  # all at once: batches, not one wake-up each
        got = b""
        while got.count(b"\r\n") < REQUESTS:
            chunk = s.recv(65536)
            assert chunk, "closed early"
            got += chunk
        assert got.split(b"\r\n")[:-1] == [got.split(b"\r\n")[0]] * REQUESTS
        assert got.startswith(b"VERSION ")
    assert mw.stop() == 0
    woken, dequeued = wakeups(mw.output())
    assert dequeued == REQUESTS
    assert woken < dequeued
