"""Server faults: a dead or hung memcached gives SERVER_ERROR, then the middleware recovers."""

from __future__ import annotations

import csv
import json
import signal
import socket
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from mw_client import (
    connect,
    get_direct,
    read_exactly,
    request,
    set_cmd,
    value_block,
    wait_for,
)
from mw_procs import Proc, memcached

from conftest import MiddlewareFactory

pytestmark = pytest.mark.integration


@pytest.fixture
def lone_server() -> Iterator[list[Proc]]:
    """A memcached of its own, so killing it does not disturb the module's servers."""
    procs = [memcached()]
    yield procs
    for p in procs:
        p.stop()


def read_line(s: socket.socket) -> bytes:
    line = b""
    while not line.endswith(b"\r\n"):
        chunk = s.recv(1)
        if not chunk:
            break
        line += chunk
    return line


def all_succeed(attempt: Callable[[], bool], times: int = 12) -> bool:
    """True when attempt succeeds this many times in a row (every worker has recovered)."""
    return all(attempt() for _ in range(times))


def get_line(port: int, key: str) -> bytes:
    with connect(port) as s:
        s.sendall(f"get {key}\r\n".encode())
        return read_line(s)


def test_killed_server_gives_server_error_then_recovers(
    start_middleware: MiddlewareFactory, lone_server: list[Proc]
) -> None:
    port = lone_server[0].port
    mw = start_middleware(server_ports=[port], workers=4)
    assert request(mw.port, set_cmd("kf", b"1"), 8) == b"STORED\r\n"
    lone_server[0].stop(signal.SIGKILL)
    for _ in range(10):  # every worker, stale connection or not, answers SERVER_ERROR
        assert get_line(mw.port, "kf").startswith(b"SERVER_ERROR")
    with connect(mw.port) as s:  # the same client keeps working across the failure
        s.sendall(set_cmd("kf", b"2"))
        assert read_line(s).startswith(b"SERVER_ERROR")
    lone_server[0] = memcached(port)
    assert wait_for(
        lambda: all_succeed(lambda: request(mw.port, set_cmd("kf", b"3"), 8) == b"STORED\r\n")
    )
    for _ in range(10):
        assert get_line(mw.port, "kf") == b"VALUE kf 0 1\r\n"


def test_one_replica_down_fails_the_set(
    start_middleware: MiddlewareFactory, servers: list[Proc], lone_server: list[Proc]
) -> None:
    mw = start_middleware(server_ports=[servers[0].port, lone_server[0].port])
    assert request(mw.port, set_cmd("rd", b"x"), 8) == b"STORED\r\n"
    lone_server[0].stop(signal.SIGKILL)
    with connect(mw.port) as s:
        s.sendall(set_cmd("rd", b"y") + b"get rd\r\n")
        assert read_line(s).startswith(b"SERVER_ERROR")  # not every replica stored
        reply = read_line(s)  # the get goes to the least-loaded server: value or error
        assert reply == b"VALUE rd 0 1\r\n" or reply.startswith(b"SERVER_ERROR")


def test_sharded_multiget_answers_the_live_shards_and_counts_the_failure(
    start_middleware: MiddlewareFactory,
    servers: list[Proc],
    lone_server: list[Proc],
    tmp_path: Path,
) -> None:
    ports = [servers[0].port, lone_server[0].port]
    mw = start_middleware(server_ports=ports, sharded=True, replication=1, stats_dir=tmp_path)
    keys = [f"sh:{i}" for i in range(10)]
    for k in keys:
        assert request(mw.port, set_cmd(k, k.encode()), 8) == b"STORED\r\n"
    alive = [k for k in keys if get_direct(ports[0], k) is not None]
    assert 0 < len(alive) < len(keys)  # both shards hold some of the keys
    lone_server[0].stop(signal.SIGKILL)
    with connect(mw.port) as s:
        s.sendall(("get " + " ".join(keys) + "\r\n").encode())
        want = b"".join(value_block(k, k.encode()) for k in alive) + b"END\r\n"
        assert read_exactly(s, len(want)) == want
    assert mw.stop() == 0
    totals = json.loads((tmp_path / "summary.json").read_text())["totals"]["multiget"]
    assert totals["completed"] == 1
    assert totals["errors"] == 1  # the failed shard is counted
    assert totals["misses"] == len(keys) - len(alive)


def test_requests_per_server_counts_in_the_window_the_request_completed(
    start_middleware: MiddlewareFactory, lone_server: list[Proc], tmp_path: Path
) -> None:
    mw = start_middleware(
        server_ports=[lone_server[0].port],
        stats_dir=tmp_path,
        extra=["--window-ms", "200", "--sample-every", "1"],
    )
    with connect(mw.port) as s:
        lone_server[0].pause()  # the reply comes three windows later
        try:
            s.sendall(b"get pw\r\n")
            time.sleep(0.6)
        finally:
            lone_server[0].resume()
        assert read_exactly(s, 5) == b"END\r\n"
    assert mw.stop() == 0
    windows = [json.loads(line) for line in (tmp_path / "windows.jsonl").read_text().splitlines()]
    row = next(csv.DictReader((tmp_path / "requests.csv").read_text().splitlines()))
    arrived = int(float(row["arrival_us"]) // 200_000)
    completed = int(float(row["written_us"]) // 200_000)
    assert completed > arrived
    assert windows[completed]["types"]["get"]["completed"] == 1
    assert [w["requests_per_server"][0] for w in windows] == [
        1 if w["window"] == completed else 0 for w in windows
    ]


def test_hung_server_times_out(
    start_middleware: MiddlewareFactory, lone_server: list[Proc]
) -> None:
    mw = start_middleware(
        server_ports=[lone_server[0].port], workers=2, extra=["--server-timeout-ms", "300"]
    )
    assert request(mw.port, set_cmd("hung", b"1"), 8) == b"STORED\r\n"
    lone_server[0].pause()
    try:
        assert get_line(mw.port, "hung").startswith(b"SERVER_ERROR")
    finally:
        lone_server[0].resume()
    # Workers that saw the failure retry after their backoff (at most 1 s); then all succeed.
    assert wait_for(lambda: all_succeed(lambda: get_line(mw.port, "hung") == b"VALUE hung 0 1\r\n"))
