"""Loopback ports for test servers, and who listens on one.

Tests start servers side by side (xdist workers, the C++ lane's three integration suites), and
free_port() can hand two of them the same port before either binds it. A connection that
succeeds then proves only that *someone* listens: the loser's server exits on EADDRINUSE while
its test talks to the winner's. Starting code waits with wait_listening() until the listener
is its own process's, and start_on_free_port() starts again on another port when it was not.

Plain standard library on purpose: the root conftest and the benchmark scripts pick ports
before the settings may be read.
"""

import os
import socket
import subprocess
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from enum import Enum
from pathlib import Path
from typing import TypeVar

HOST = "127.0.0.1"
T = TypeVar("T")


class PortTaken(RuntimeError):
    """The process exited without listening because another process holds its port."""


class ExitedBeforeListening(RuntimeError):
    """The process exited without listening, and nobody else holds its port."""


class Listener(Enum):
    NONE = "none"
    OURS = "ours"
    OTHER = "other"


def free_port() -> int:
    """A currently free TCP port on 127.0.0.1 (the kernel picks it)."""
    with socket.socket() as s:
        s.bind((HOST, 0))
        return int(s.getsockname()[1])


@contextmanager
def listening_port() -> Iterator[int]:
    """A loopback port this process listens on: what another suite's server looks like."""
    with socket.socket() as s:
        s.bind((HOST, 0))
        s.listen()
        yield s.getsockname()[1]


def handing_out_first(port: int) -> Callable[[], int]:
    """A stand-in for free_port() that hands out `port` first (as if it was taken meanwhile),
    then free ones: patch it over `ports.free_port` to test the move to another port."""
    real, handed = free_port, iter([port])
    return lambda: next(handed, None) or real()


def _listening_inodes(port: int) -> set[str]:
    """Socket inodes listening on 127.0.0.1:port in this network namespace (/proc/net/tcp)."""
    local = f"0100007F:{port:04X}"  # 127.0.0.1 as the kernel prints it: little-endian hex
    inodes = set()
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        fields = line.split()
        if fields[1] == local and fields[3] == "0A":  # 0A: LISTEN
            inodes.add(fields[9])
    return inodes


def _holds_any(pid: int, inodes: set[str]) -> bool:
    wanted = {f"socket:[{inode}]" for inode in inodes}
    try:
        fds = list(Path(f"/proc/{pid}/fd").iterdir())
    except FileNotFoundError:
        return False  # the process is gone
    for fd in fds:
        try:
            if os.readlink(fd) in wanted:
                return True
        except FileNotFoundError:
            continue  # closed while we looked
    return False


def listener(pid: int, port: int) -> Listener:
    """Whether process pid (its own file descriptors, not its children's) listens on
    127.0.0.1:port, another process does, or nothing does."""
    inodes = _listening_inodes(port)
    if not inodes:
        return Listener.NONE
    return Listener.OURS if _holds_any(pid, inodes) else Listener.OTHER


def wait_listening(
    proc: "subprocess.Popen[bytes]",
    port: int,
    timeout_s: float,
    *,
    ready: Callable[[], bool] = lambda: True,
    poll_s: float = 0.02,
) -> None:
    """Return once proc itself listens on 127.0.0.1:port and ready() holds (a health check);
    PortTaken if it exited because another process holds the port, ExitedBeforeListening if it
    exited otherwise, TimeoutError if neither happened in time. The caller stops proc."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            if listener(proc.pid, port) is Listener.OTHER:
                raise PortTaken(f"port {port} taken by another process")
            raise ExitedBeforeListening(f"exited ({proc.returncode}) before listening on {port}")
        if listener(proc.pid, port) is Listener.OURS and ready():
            return
        time.sleep(poll_s)
    raise TimeoutError(f"did not listen on {port} within {timeout_s} s")


def start_on_free_port(start: Callable[[int], T], attempts: int = 3) -> T:
    """start(port) on a free port; on another one when start raises PortTaken (another
    process bound the port between free_port() and the server's bind)."""
    for _ in range(attempts - 1):
        try:
            return start(free_port())
        except PortTaken:
            continue
    return start(free_port())
