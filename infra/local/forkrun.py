"""A fork server for the browser tests' Python helpers (the seeding scripts).

The browser suite runs its seeding scripts about seventy times; each new interpreter spent about
3 CPU s importing SQLAlchemy, SciPy and the worker before seeding anything (measured 2026-11-29:
the helpers took 135 of the suite's 650 CPU s). `serve` imports them once, then forks a child per
call, which runs the module as `python -m` would with the caller's arguments and working
directory and sends back its exit code, standard output and standard error. A child starts from
the parent's imports but opens its own database connections.

    python infra/local/forkrun.py serve SOCKET                  (scripts/e2e.sh starts it)
    python -S infra/local/forkrun.py call SOCKET MODULE ARG...  (the client: no site-packages,
                                                                 so it starts in milliseconds)

Hand-written: the standard library's multiprocessing forkserver serves pickled functions to
Python callers, not command lines to the Node.js tests.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import signal
import socket
import struct
import sys
from typing import Any

# What the helpers import; loaded once in the server.
PRELOAD = ("worker.scripts.seed_fixture_runs", "worker.scripts.seed_monitor_runs")


def _send(conn: socket.socket, payload: dict[str, Any]) -> None:
    data = json.dumps(payload).encode()
    conn.sendall(struct.pack("!Q", len(data)) + data)


def _receive(conn: socket.socket) -> dict[str, Any]:
    def exactly(n: int) -> bytes:
        chunks, left = [], n
        while left:
            chunk = conn.recv(min(left, 1 << 20))
            if not chunk:
                raise ConnectionError("forkrun: the other end closed the connection early")
            chunks.append(chunk)
            left -= len(chunk)
        return b"".join(chunks)

    (size,) = struct.unpack("!Q", exactly(8))
    result: dict[str, Any] = json.loads(exactly(size))
    return result


class _Capture(io.StringIO):
    """Standard output or error of a call; a module may close it (json.tool does), as it may
    close its real standard output, and what it wrote is still sent."""

    def close(self) -> None:
        pass


def _run_module(request: dict[str, Any]) -> dict[str, Any]:
    import runpy

    out, err = _Capture(), _Capture()
    code = 0
    os.chdir(request["cwd"])
    sys.argv = [request["module"], *request["args"]]
    # Run as __main__ from its source, as python -m does: a preloaded copy would make runpy
    # warn that the module was imported before it ran (what it imports stays loaded).
    sys.modules.pop(request["module"], None)
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            runpy.run_module(request["module"], run_name="__main__", alter_sys=True)
        except SystemExit as exit_:
            code = exit_.code if isinstance(exit_.code, int) else (0 if exit_.code is None else 1)
            if not isinstance(exit_.code, int | None):
                print(exit_.code, file=sys.stderr)
        except BaseException:  # the traceback goes to the caller, as python -m would print it
            import traceback

            traceback.print_exc()
            code = 1
    return {"code": code, "stdout": out.getvalue(), "stderr": err.getvalue()}


def _child(conn: socket.socket) -> None:
    # The parent's connection pool (empty: it never connected) is not this process's to use.
    db = sys.modules.get("backend.core.db")
    if db is not None:
        db.engine.dispose(close=False)
    try:
        try:
            reply = _run_module(_receive(conn))
        except BaseException as e:  # never leave the caller without an answer
            reply = {"code": 1, "stdout": "", "stderr": f"forkrun: {e!r}\n"}
        _send(conn, reply)
    finally:
        conn.close()
        os._exit(0)


def serve(path: str) -> None:
    import importlib

    for module in PRELOAD:
        importlib.import_module(module)
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # children are reaped by the kernel
    with contextlib.suppress(FileNotFoundError):
        os.unlink(path)
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    server.bind(path)
    server.listen(16)
    print(f"forkrun: serving {path}", flush=True)
    while True:
        conn, _ = server.accept()
        if os.fork() == 0:
            server.close()
            _child(conn)
        conn.close()


def call(path: str, module: str, args: list[str]) -> int:
    conn = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        conn.connect(path)
    except OSError as e:
        print(f"forkrun: no server at {path} ({e}); scripts/e2e.sh starts it", file=sys.stderr)
        return 2
    with conn:
        _send(conn, {"module": module, "args": args, "cwd": os.getcwd()})
        reply = _receive(conn)
    sys.stdout.write(reply["stdout"])
    sys.stderr.write(reply["stderr"])
    return int(reply["code"])


def main(argv: list[str]) -> int:
    if len(argv) >= 2 and argv[0] == "serve":
        serve(argv[1])
        return 0
    if len(argv) >= 3 and argv[0] == "call":
        return call(argv[1], argv[2], argv[3:])
    print(
        "usage: forkrun.py serve SOCKET | forkrun.py call SOCKET MODULE [ARG...]", file=sys.stderr
    )
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
