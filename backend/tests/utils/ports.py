"""Loopback ports for test servers, and who listens on one.

Tests start servers side by side (xdist workers, the C++ lane's three integration suites), and
free_port() can hand two of them the same port before either binds it. A connection that
succeeds then proves only that *someone* listens: the loser's server exits on EADDRINUSE while
its test talks to the winner's. Starting code asks listener() whether the listener is its own
process's instead.
"""

import os
import socket
from enum import Enum
from pathlib import Path

HOST = "127.0.0.1"


class Listener(Enum):
    NONE = "none"
    OURS = "ours"
    OTHER = "other"


def free_port() -> int:
    """A currently free TCP port on 127.0.0.1 (the kernel picks it)."""
    with socket.socket() as s:
        s.bind((HOST, 0))
        return int(s.getsockname()[1])


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
