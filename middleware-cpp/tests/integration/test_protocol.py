"""Protocol behaviour through the middleware: round trips, sharding, replication, ordering."""

from __future__ import annotations

import threading

import pytest
from mw_client import (
    connect,
    get_direct,
    read_exactly,
    read_until_closed,
    request,
    set_cmd,
    value_block,
)
from mw_procs import HOST, Proc
from pymemcache.client.base import Client

from conftest import MiddlewareFactory

pytestmark = pytest.mark.integration


def client(proc: Proc) -> Client:
    return Client((HOST, proc.port), connect_timeout=5, timeout=10)


def test_set_get_roundtrip_4096_bytes(start_middleware: MiddlewareFactory) -> None:
    mw = start_middleware()
    c = client(mw)
    values = {f"rt:{i}": bytes([65 + i % 26]) * 4096 for i in range(40)}
    for k, v in values.items():
        assert c.set(k, v, noreply=False) is True
    for k, v in values.items():
        assert c.get(k) == v
    assert c.get("rt:absent") is None


@pytest.mark.parametrize("sharded", [False, True])
def test_multiget_nine_keys(start_middleware: MiddlewareFactory, sharded: bool) -> None:
    mw = start_middleware(sharded=sharded)
    c = client(mw)
    keys = [f"mg:{sharded}:{i}" for i in range(9)]
    for i, k in enumerate(keys):
        c.set(k, str(i).encode() * 500, noreply=False)
    got = c.get_many(keys)
    assert got == {k: str(i).encode() * 500 for i, k in enumerate(keys)}
    # Raw check of order and the single END, with two misses in the middle.
    ask = keys[:4] + ["mg:none:1", "mg:none:2"] + keys[4:]
    expect = b"".join(value_block(k, str(keys.index(k)).encode() * 500) for k in keys) + b"END\r\n"
    assert request(mw.port, f"get {' '.join(ask)}\r\n".encode(), len(expect)) == expect


def test_set_reaches_all_servers_without_r(
    start_middleware: MiddlewareFactory, servers: list[Proc]
) -> None:
    mw = start_middleware()
    assert request(mw.port, set_cmd("rep:all", b"everywhere"), 8) == b"STORED\r\n"
    for s in servers:
        assert get_direct(s.port, "rep:all") == b"everywhere"


def test_replication_r2_places_two_copies(
    start_middleware: MiddlewareFactory, servers: list[Proc]
) -> None:
    mw = start_middleware(replication=2)
    c = client(mw)
    for i in range(30):
        assert c.set(f"r2:{i}", f"v{i}".encode(), noreply=False) is True
    for i in range(30):
        copies = [get_direct(s.port, f"r2:{i}") for s in servers]
        assert copies.count(f"v{i}".encode()) == 2, copies
        assert c.get(f"r2:{i}") == f"v{i}".encode()  # gets follow the key's primary


def test_unsharded_multiget_with_r_goes_to_the_first_keys_primary(
    start_middleware: MiddlewareFactory, servers: list[Proc]
) -> None:
    mw = start_middleware(replication=1)  # -s false: the whole multi-get goes to one server
    keys = [f"fk:{i}" for i in range(12)]
    c = client(mw)
    for k in keys:
        assert c.set(k, k.encode(), noreply=False) is True
    home = {k: next(s.port for s in servers if get_direct(s.port, k) is not None) for k in keys}
    for first in keys[:4]:
        asked = [first] + [k for k in keys if k != first]
        got = c.get_many(asked)
        # Only the first key's primary was asked: exactly its keys come back.
        assert set(got) == {k for k in asked if home[k] == home[first]}, (first, got)


def test_delete_version_error_and_quit(start_middleware: MiddlewareFactory) -> None:
    mw = start_middleware()
    with connect(mw.port) as s:
        s.sendall(set_cmd("dv", b"x") + b"delete dv\r\ndelete dv\r\nversion\r\nbogus\r\n")
        assert read_exactly(s, 8 + 9 + 11) == b"STORED\r\nDELETED\r\nNOT_FOUND\r\n"
        version = b""
        while not version.endswith(b"\r\n"):
            version += s.recv(1)
        assert version.startswith(b"VERSION ")
        assert read_exactly(s, 7) == b"ERROR\r\n"
        s.sendall(b"quit\r\nget dv\r\n")
        assert read_until_closed(s) == b""


def test_pipelined_replies_stay_in_request_order(start_middleware: MiddlewareFactory) -> None:
    mw = start_middleware(workers=8)
    c = client(mw)
    for i in range(50):
        c.set(f"pipe:{i}", f"value-{i}".encode() * (1 + i % 7), noreply=False)
    batch, expect = b"", b""
    for round_ in range(4):
        for i in range(50):
            k = f"pipe:{(i * 7 + round_) % 50}"
            v = f"value-{(i * 7 + round_) % 50}".encode() * (1 + ((i * 7 + round_) % 50) % 7)
            batch += f"get {k}\r\n".encode()
            expect += value_block(k, v) + b"END\r\n"
        # A write in the middle: later reads must see it (per-client execution order).
        c.delete(f"pipe:new:{round_}", noreply=False)
        batch += set_cmd(f"pipe:new:{round_}", b"new") + f"get pipe:new:{round_}\r\n".encode()
        expect += b"STORED\r\n" + value_block(f"pipe:new:{round_}", b"new") + b"END\r\n"
    with connect(mw.port) as s:
        s.sendall(batch)
        got = read_exactly(s, len(expect))
    assert got == expect


def test_fragmented_requests(start_middleware: MiddlewareFactory) -> None:
    mw = start_middleware()
    value = bytes(range(256)) * 16
    data = set_cmd("frag", value) + b"get frag\r\n"
    expect = b"STORED\r\n" + value_block("frag", value) + b"END\r\n"
    with connect(mw.port) as s:
        for i in range(0, len(data), 7):  # tiny TCP segments (NODELAY)
            s.sendall(data[i : i + 7])
        assert read_exactly(s, len(expect)) == expect


def test_bad_input_gets_errors_and_connection_survives(
    start_middleware: MiddlewareFactory,
) -> None:
    mw = start_middleware()
    with connect(mw.port) as s:
        s.sendall(b"\x00\xff\x80garbage\r\nset k 0 0 abc\r\nset k 0 0 2\r\ntoolong\r\nget\r\n")
        expect = (
            b"ERROR\r\n"
            b"CLIENT_ERROR bad command line format\r\n"
            b"CLIENT_ERROR bad data chunk\r\n"
            b"ERROR\r\n"  # the rest of the over-long value, read as a command
            b"ERROR\r\n"
        )
        assert read_exactly(s, len(expect)) == expect
        s.sendall(set_cmd("ok", b"fine") + b"get ok\r\n")
        expect = b"STORED\r\n" + value_block("ok", b"fine") + b"END\r\n"
        assert read_exactly(s, len(expect)) == expect
    with connect(mw.port) as s:
        s.sendall(b"x" * 20000)
        assert read_until_closed(s) == b"CLIENT_ERROR line too long\r\n"


def test_disconnects_mid_request_and_idle_connections(
    start_middleware: MiddlewareFactory,
) -> None:
    mw = start_middleware()
    for _ in range(50):
        with connect(mw.port) as s:
            s.sendall(b"set half 0 0 4096\r\n" + b"x" * 1000)
        with connect(mw.port) as s:
            s.sendall(b"get a b c\r\n" * 20)  # leave before reading the replies
    idle = [connect(mw.port) for _ in range(1000)]
    try:
        c = client(mw)
        assert c.set("after", b"alive", noreply=False) is True
        assert c.get("after") == b"alive"
    finally:
        for s in idle:
            s.close()
    assert mw.alive()


def test_concurrent_clients_never_get_each_others_replies(
    start_middleware: MiddlewareFactory,
) -> None:
    mw = start_middleware(workers=8)
    errors: list[str] = []

    def run(n: int) -> None:
        c = client(mw)
        for i in range(100):
            key, value = f"cc:{n}:{i % 10}", f"{n}-{i}".encode() * (1 + n)
            c.set(key, value, noreply=False)
            if c.get(key) != value:
                errors.append(f"client {n} round {i}")

    threads = [threading.Thread(target=run, args=(n,)) for n in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []


def test_full_queue_applies_backpressure_without_loss(start_middleware: MiddlewareFactory) -> None:
    mw = start_middleware(workers=1, extra=["--queue-capacity", "1"])
    c = client(mw)
    c.set("bp", b"v" * 100, noreply=False)
    expect = (value_block("bp", b"v" * 100) + b"END\r\n") * 200
    socks = [connect(mw.port) for _ in range(10)]
    for s in socks:
        s.sendall(b"get bp\r\n" * 200)
    for s in socks:
        assert read_exactly(s, len(expect)) == expect
        s.close()


def test_noreply_and_oversized_value(start_middleware: MiddlewareFactory) -> None:
    mw = start_middleware()
    big = b"z" * (1024 * 1024 + 1)
    with connect(mw.port) as s:
        s.sendall(b"set nr 0 0 2 noreply\r\nok\r\nget nr\r\n")
        expect = value_block("nr", b"ok") + b"END\r\n"  # no STORED line for noreply
        assert read_exactly(s, len(expect)) == expect
        s.sendall(set_cmd("huge", big) + b"get nr\r\n")
        expect = b"SERVER_ERROR object too large for cache\r\n" + expect
        assert read_exactly(s, len(expect)) == expect


def test_slow_reader_gets_every_large_reply_in_order(start_middleware: MiddlewareFactory) -> None:
    # 40 pipelined gets of a 400 KB value (16 MB of replies) from a client that does not read at
    # first: the socket buffers fill, so workers' non-blocking sends fall short and the network
    # thread finishes the writes. Small gets in between must keep their places, and another
    # client must be served meanwhile.
    mw = start_middleware(workers=4)
    big, small = bytes(range(256)) * 1600, b"tiny"
    c = client(mw)
    c.set("slow:big", big, noreply=False)
    c.set("slow:small", small, noreply=False)
    batch, expect = b"", b""
    for i in range(40):
        key, value = ("slow:big", big) if i % 3 != 1 else ("slow:small", small)
        batch += f"get {key}\r\n".encode()
        expect += value_block(key, value) + b"END\r\n"
    with connect(mw.port, timeout=30) as s:
        s.sendall(batch)
        for i in range(20):  # the stalled client does not hold up the others
            c.set(f"slow:other:{i}", b"x", noreply=False)
            assert c.get(f"slow:other:{i}") == b"x"
        got = read_exactly(s, len(expect))
    assert got == expect
