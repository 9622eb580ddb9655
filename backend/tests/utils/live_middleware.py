"""Run the built middleware for real against a memcached on 127.0.0.1 and keep its stats dir.

For tests that need genuine middleware output: one connection sends sets and gets (1 in 4 a
set) for `seconds`, at most RATE_PER_S of them, every request is sampled into requests.csv, and the
middleware is stopped with SIGINT so it writes every file. Processes are stopped by PID.
"""

from __future__ import annotations

import signal
import socket
import subprocess
import time
from pathlib import Path

from worker.runs.testbed import LOCAL_MIDDLEWARE


def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _wait_listening(port: int, proc: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        assert proc.poll() is None, "process exited before listening"
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return
        except OSError:
            time.sleep(0.02)
    raise AssertionError(f"nothing listens on {port}")


def _stop(proc: subprocess.Popen[bytes], sig: int) -> None:
    if proc.poll() is None:
        proc.send_signal(sig)
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


RATE_PER_S = 4000
"""Paced, so that every request fits the middleware's sample ring (2^14 per worker) even when a
loaded machine delays its reporter by a few seconds: back to back, a fast machine overflowed
it and requests.csv then missed requests that the histograms count."""


def _traffic(port: int, seconds: float) -> None:
    with socket.create_connection(("127.0.0.1", port)) as conn:
        f = conn.makefile("rwb")
        start = time.monotonic()
        end = start + seconds
        i = 0
        while (now := time.monotonic()) < end:
            if (ahead := start + i / RATE_PER_S - now) > 0:
                time.sleep(ahead)
            key = f"k{i % 50}".encode()
            if i % 4 == 0:
                f.write(b"set " + key + b" 0 0 5\r\nhello\r\n")
                f.flush()
                assert f.readline() == b"STORED\r\n"
            else:
                f.write(b"get " + key + b"\r\n")
                f.flush()
                while f.readline() != b"END\r\n":
                    pass
            i += 1


def run_middleware(out: Path, *, seconds: float, window_ms: int) -> Path:
    """Stats dir `out` of a middleware that served `seconds` of traffic, then stopped cleanly."""
    assert LOCAL_MIDDLEWARE.is_file(), f"build the middleware first: {LOCAL_MIDDLEWARE}"
    mc_port, mw_port = _port(), _port()
    mc = subprocess.Popen(
        ["memcached", "-u", "root", "-l", "127.0.0.1", "-p", str(mc_port), "-U", "0", "-t", "1"]
    )
    mw: subprocess.Popen[bytes] | None = None
    try:
        _wait_listening(mc_port, mc)
        mw = subprocess.Popen(
            [str(LOCAL_MIDDLEWARE), "-l", "127.0.0.1", "-p", str(mw_port), "-t", "2",
             "-s", "false", "-m", f"127.0.0.1:{mc_port}", "--stats-dir", str(out),
             "--window-ms", str(window_ms), "--sample-every", "1"],
        )  # fmt: skip
        _wait_listening(mw_port, mw)
        _traffic(mw_port, seconds)
        _stop(mw, signal.SIGINT)
        assert mw.returncode == 0, f"middleware exited {mw.returncode}"
        return out
    finally:
        if mw is not None:
            _stop(mw, signal.SIGKILL)
        _stop(mc, signal.SIGTERM)
