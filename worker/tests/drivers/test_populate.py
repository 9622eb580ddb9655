"""Populating memcached (real memcached over the local sshd, 127.0.0.1 only): every key memtier
reads is stored once with the configured size, a refused set fails the step naming the reply,
and flush_all + populate brings a used server back to the populated state."""

import socket
import tempfile

import pytest

from backend.domain.memcached_sizing import KEY_MAXIMUM_MAX, LONGEST_KEY_B, MAX_VALUE_B
from backend.tests.utils.ports import free_port
from worker.drivers.host import Host, RemoteProcess
from worker.drivers.loadgen import LoadSpec
from worker.drivers.memaslap import KEY_SIZE_B as MEMASLAP_KEY_SIZE_B
from worker.drivers.memcached import MemcachedDriver, ask, flush_server, server_stats
from worker.drivers.memtier import KEY_PREFIX, MemtierDriver

pytestmark = pytest.mark.integration


def _memcached(host: Host, workdir: str, extra: list[str]) -> tuple[RemoteProcess, int]:
    port = free_port()
    driver = MemcachedDriver(host)
    as_root = host.run("id -u").strip() == "0"
    argv = driver.argv(listen="127.0.0.1", port=port, memory=64, as_root=as_root) + extra
    proc = driver.launch(argv, workdir, f"server-{port}")
    host.wait_listening(proc, port)
    return proc, port


def _spec(port: int, keys: int, size: int) -> LoadSpec:
    return LoadSpec((("127.0.0.1", port),), 1, 1, "0:1", 1, size, keys, 5)


def test_populate_writes_every_key_memtier_reads(host: Host) -> None:
    workdir = tempfile.mkdtemp(prefix="mcscope-populate-")
    proc, port = _memcached(host, workdir, [])
    try:
        pop = MemtierDriver(host).populate(_spec(port, 3000, 200), workdir, "populate")
        assert host.wait_exit(pop, 30) == 0, host.tail(pop.path("err"))
        assert host.tail(pop.path("out")) == "3000 keys stored"
        stats = server_stats(host, "127.0.0.1", port)
        assert stats["curr_items"] == 3000 and stats["evictions"] == 0
        # The first and last key of memtier's range, with the configured size; none beyond.
        replies = ask(host, "127.0.0.1", port, [f"get {KEY_PREFIX}1 {KEY_PREFIX}3000 x"])
        assert [r for r in replies if r.startswith("VALUE")] == [
            f"VALUE {KEY_PREFIX}1 0 200",
            f"VALUE {KEY_PREFIX}3000 0 200",
        ]
        populated = stats["bytes"]

        # A used server (keys overwritten, one extra key) flushed and populated again holds
        # exactly what a fresh one held after its populate.
        ask(host, "127.0.0.1", port, ["set other 0 0 1", "z", f"set {KEY_PREFIX}7 0 0 1", "z"])
        flush_server(host, "127.0.0.1", port)
        assert ask(host, "127.0.0.1", port, [f"get {KEY_PREFIX}1"]) == ["END"]
        again = MemtierDriver(host).populate(_spec(port, 3000, 200), workdir, "populate-2")
        assert host.wait_exit(again, 30) == 0, host.tail(again.path("err"))
        # "other" is invalid but counted until memcached reclaims it (lazily, here on a get).
        assert ask(host, "127.0.0.1", port, ["get other"]) == ["END"]
        after = server_stats(host, "127.0.0.1", port)
        assert (after["curr_items"], after["bytes"]) == (3000, populated)
    finally:
        host.stop(proc.pid, grace_s=2)
        host.run(f"rm -rf {workdir}")


def test_populate_fails_naming_the_refusal(host: Host) -> None:
    workdir = tempfile.mkdtemp(prefix="mcscope-populate-")
    # -M: answer "out of memory" instead of evicting; 64 MB cannot hold 20000 x 8 KB.
    proc, port = _memcached(host, workdir, ["-M"])
    try:
        pop = MemtierDriver(host).populate(_spec(port, 20000, 8192), workdir, "populate")
        assert host.wait_exit(pop, 60) == 1
        assert "unexpected reply: SERVER_ERROR" in host.tail(pop.path("err"))
    finally:
        host.stop(proc.pid, grace_s=2)
        host.run(f"rm -rf {workdir}")


def _store(port: int, key: str, size: int) -> bytes:
    """One set of `size` bytes to the memcached on 127.0.0.1:port; its reply line."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
        s.sendall(f"set {key} 0 0 {size}\r\n".encode() + b"x" * size + b"\r\n")
        reply = b""
        while not reply.endswith(b"\r\n"):
            chunk = s.recv(256)
            if not chunk:
                break
            reply += chunk
    return reply.strip()


def test_largest_value_size_fits_memcached_as_the_worker_starts_it(host: Host) -> None:
    """The value_size parameter's maximum is the largest value memcached (started as a run
    starts it) stores under the longest key a load generator sends; one byte more is refused,
    so the limit is exact, not a guess."""
    workdir = tempfile.mkdtemp(prefix="mcscope-itemsize-")
    proc, port = _memcached(host, workdir, [])
    longest_key = f"{KEY_PREFIX}{KEY_MAXIMUM_MAX}"
    try:
        assert len(longest_key) == LONGEST_KEY_B
        assert _store(port, longest_key, MAX_VALUE_B) == b"STORED"
        assert (
            _store(port, longest_key, MAX_VALUE_B + 1) == b"SERVER_ERROR object too large for cache"
        )
    finally:
        host.stop(proc.pid, grace_s=2)
        host.run(f"rm -rf {workdir}")


def test_longest_key_covers_both_load_generators() -> None:
    assert LONGEST_KEY_B >= len(KEY_PREFIX) + len(str(KEY_MAXIMUM_MAX))
    assert LONGEST_KEY_B >= MEMASLAP_KEY_SIZE_B
    assert LONGEST_KEY_B == max(len(KEY_PREFIX) + len(str(KEY_MAXIMUM_MAX)), MEMASLAP_KEY_SIZE_B)
