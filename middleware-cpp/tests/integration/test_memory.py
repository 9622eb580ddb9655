"""Memory bound: --max-buffered-bytes caps what clients make the middleware buffer; a client that
does not read is paused, then closed; a half-sent set is closed after --client-body-timeout-ms.

The exact bound (src/memory_budget.hpp, memory_account) is asserted on buffered_bytes_max, the
middleware's own count of every buffered byte, in every build: the cap plus, per client, one
reply (the one next in line; never two, whatever the timing of its writes) and what it sent
(its read buffer and parsed requests are charged when read, never refused). The values are
stored straight into memcached, so the clients below are all the middleware ever sees."""

from __future__ import annotations

import json
import re
import socket
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from mw_client import (
    connect,
    read_exactly,
    read_until_closed,
    request,
    set_cmd,
    value_block,
    wait_for,
)
from mw_procs import Proc, middleware_bin

from conftest import MiddlewareFactory

pytestmark = pytest.mark.integration

KIB = 1 << 10
MIB = 1 << 20
CAP = 64 * MIB
BIG = b"m" * 1_000_000  # memcached's default item limit is 1 MiB
KEYS_PER_GET = 15  # one reply: 15 MB, under --max-reply-bytes (16 MiB)
BIG_GET = b"get" + b" mem:big" * KEYS_PER_GET + b"\r\n"
BIG_REPLY = len(value_block("mem:big", BIG) * KEYS_PER_GET + b"END\r\n")  # 15,000,410 B
SMALL_GET = b"get mem:small\r\n"
SMALL_REPLY = len(value_block("mem:small", b"tiny") + b"END\r\n")
SERVED_GETS = 3  # per served() connection
WORKERS = 2
# Besides the cap: one reply per client past it (a client holding no reply may always take
# one), each worker's reply buffer towards memcached (grown to 16 MiB for one 15 MB reply), and
# the baseline (about 10 MiB) plus allocator slack. Today's code passes 1.6 GiB within 10 s.
ALLOWANCE = 2 * 16 * MIB + WORKERS * 16 * MIB + 48 * MIB
# ASan's and TSan's shadow memory and quarantine grow RSS several-fold (up to 3x seen under
# TSan); there the exact count (buffered_bytes_max) is the tight check, RSS a loose one.
RSS_LIMIT = (CAP + ALLOWANCE) * (4 if middleware_bin().parent.name in ("asan", "tsan") else 1)
PROBE_S = 5.0
CLOSED_FOR_MEMORY = "too long (it does not read); closing"


def read_buffer_max(sent: int) -> int:
    """The largest read buffer a client that sent `sent` bytes can make the middleware hold
    (connection.cpp: 16 KiB, doubled only while under 4 KiB of it is free, i.e. while it holds
    more than its size - 4 KiB unparsed bytes, which the client must have sent)."""
    size = 16 * KIB
    while sent > size - 4 * KIB:
        size *= 2
    return size


def cap_bound(cap: int, clients: list[tuple[int, int]]) -> int:
    """How far buffered bytes may go (memory_account in src/memory_budget.hpp): the cap, plus
    for each client (bytes it sent, its largest reply) one reply past the cap, its read
    buffer and its request bytes."""
    return cap + sum(reply + read_buffer_max(sent) + sent for sent, reply in clients)


def non_reader_use(lines: int) -> tuple[int, int]:
    """(bytes sent, largest reply) of a non_reader() client."""
    return lines * len(BIG_GET), BIG_REPLY


SERVED = (SERVED_GETS * len(SMALL_GET), SMALL_REPLY)  # one served() client


def rss_bytes(pid: int) -> int:
    status = Path(f"/proc/{pid}/status").read_text()
    match = re.search(r"^VmRSS:\s+(\d+) kB", status, re.MULTILINE)
    assert match, status
    return int(match.group(1)) * 1024


def pid_of(proc: Proc) -> int:
    assert proc.popen is not None
    return proc.popen.pid


def memory_counters(proc: Proc) -> dict[str, int]:
    """The 'memory: name=value ...' line the middleware logs at shutdown (after proc.stop())."""
    match = re.search(r"\] memory:((?: \w+=\d+)+)", proc.output())
    assert match, proc.output()[-2000:]
    return {k: int(v) for k, v in (kv.split("=") for kv in match.group(1).split())}


@contextmanager
def non_reader(port: int, lines: int) -> Iterator[socket.socket]:
    """A client that sends `lines` gets of KEYS_PER_GET x the big value and never reads."""
    s = connect(port)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    try:
        s.sendall(BIG_GET * lines)  # 125 B a line: fits the socket buffers at once
        yield s
    finally:
        s.close()


def store_big(server: Proc) -> None:
    """Into memcached itself: the middleware never buffers these sets."""
    assert request(server.port, set_cmd("mem:big", BIG), 8) == b"STORED\r\n"
    assert request(server.port, set_cmd("mem:small", b"tiny"), 8) == b"STORED\r\n"


def served(port: int) -> None:
    """Another client gets its answers while the memory is taken."""
    want = value_block("mem:small", b"tiny") + b"END\r\n"
    with connect(port) as s:
        for _ in range(SERVED_GETS):
            s.sendall(SMALL_GET)
            assert read_exactly(s, len(want)) == want


def peak_rss_while(pid: int, seconds: float, during: object = None) -> int:
    """Largest VmRSS seen over `seconds` (sampled every 50 ms), calling during() once."""
    peak = 0
    deadline = time.monotonic() + seconds
    called = False
    while time.monotonic() < deadline:
        peak = max(peak, rss_bytes(pid))
        if not called and callable(during):
            during()
            called = True
        time.sleep(0.05)
    return peak


def mw_flags(*, memory_timeout_ms: int = 0) -> list[str]:
    # Write timeout off: the memory bound alone must hold the non-readers. A batch of 15 MB
    # replies takes over the default 2 s server timeout under TSan.
    return [
        "--server-timeout-ms",
        "10000",
        "--max-buffered-bytes",
        str(CAP),
        "--client-write-timeout-ms",
        "0",
        "--client-memory-timeout-ms",
        str(memory_timeout_ms),
    ]


def test_non_reading_client_is_held_under_the_cap_and_others_are_served(
    start_middleware: MiddlewareFactory, servers: list[Proc], tmp_path: Path
) -> None:
    mw = start_middleware(
        server_ports=[servers[0].port], workers=WORKERS, extra=mw_flags(), stats_dir=tmp_path
    )
    store_big(servers[0])
    with non_reader(mw.port, lines=300):  # 4.5 GB of replies asked for
        peak = peak_rss_while(pid_of(mw), PROBE_S, during=lambda: served(mw.port))
        served(mw.port)
    assert peak < RSS_LIMIT, f"peak RSS {peak / MIB:.0f} MiB"
    mw.stop()
    counters = memory_counters(mw)
    assert counters["memory_pauses"] >= 1
    assert counters["memory_deferred_replies"] >= 1
    bound = cap_bound(CAP, [non_reader_use(300), SERVED, SERVED])
    assert counters["buffered_bytes_max"] <= bound, counters
    # summary.json reports the cap and the same counters (a run reads them to say it hit it).
    memory = json.loads((tmp_path / "summary.json").read_text())["memory"]
    assert memory == {"max_buffered_bytes": CAP, **counters}


def test_two_non_readers_share_the_cap_and_are_closed_when_they_hold_it_too_long(
    start_middleware: MiddlewareFactory, servers: list[Proc]
) -> None:
    mw = start_middleware(
        server_ports=[servers[0].port], workers=WORKERS, extra=mw_flags(memory_timeout_ms=1500)
    )
    store_big(servers[0])
    with non_reader(mw.port, lines=200), non_reader(mw.port, lines=200):
        peak = peak_rss_while(pid_of(mw), 1.0, during=lambda: served(mw.port))
        # Their gets waited 1.5 s for room they do not make: both closed. (Reading them here
        # would make them readers, so the middleware's log tells.)
        assert wait_for(lambda: mw.output().count(CLOSED_FOR_MEMORY) == 2, timeout=20)
        served(mw.port)
    assert peak < RSS_LIMIT, f"peak RSS {peak / MIB:.0f} MiB"
    mw.stop()
    counters = memory_counters(mw)
    assert counters["memory_closes"] == 2
    # One reply each past the cap, never two: CI's ASan build measured 105,102,069 B (cap +
    # 2.53 big replies) when a reply handed to an unfinished write no longer counted as the
    # client's one; the bound here is 97,258,142 B.
    bound = cap_bound(CAP, [non_reader_use(200), non_reader_use(200), SERVED, SERVED])
    assert counters["buffered_bytes_max"] <= bound, counters


def test_slow_reader_over_the_cap_gets_every_reply_in_order(
    start_middleware: MiddlewareFactory, servers: list[Proc]
) -> None:
    """Pausing is lossless: a client whose pipelined replies exceed the cap gets all of them."""
    mw = start_middleware(
        server_ports=[servers[0].port],
        workers=WORKERS,
        extra=["--max-buffered-bytes", str(4 * MIB)],
    )
    store_big(servers[0])
    one = value_block("mem:big", BIG) + b"END\r\n"
    small = value_block("mem:small", b"tiny") + b"END\r\n"
    n = 24
    pair = b"get mem:big\r\n" + SMALL_GET
    with connect(mw.port, timeout=30) as s:
        s.sendall(pair * n)
        for _ in range(n):
            time.sleep(0.02)  # a slow reader
            assert read_exactly(s, len(one)) == one
            assert read_exactly(s, len(small)) == small
    mw.stop()
    counters = memory_counters(mw)
    assert counters["memory_deferred_replies"] >= 1
    assert counters["buffered_bytes_max"] <= cap_bound(4 * MIB, [(n * len(pair), len(one))])


def test_half_sent_set_is_answered_and_closed_after_the_body_timeout(
    start_middleware: MiddlewareFactory,
) -> None:
    mw = start_middleware(extra=["--client-body-timeout-ms", "300"])
    clients = [connect(mw.port) for _ in range(3)]
    try:
        for s in clients:
            # An answered request first: its reply still comes before the error line.
            s.sendall(b"version\r\nset mem:half 0 0 1000000\r\n" + b"h" * 200_000)
        for s in clients:
            got = read_until_closed(s, timeout=10)
            lines = got.split(b"\r\n")
            assert lines[0].startswith(b"VERSION "), got
            assert lines[1:] == [b"SERVER_ERROR value not received in time", b""], got
        # A set sent in time is unaffected.
        assert request(mw.port, set_cmd("mem:whole", b"w" * 500_000), 8) == b"STORED\r\n"
    finally:
        for s in clients:
            s.close()
    mw.stop()
    assert memory_counters(mw)["body_timeout_closes"] == 3
