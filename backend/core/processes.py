"""Whether a process, or the worker process named by a "host:pid" identity, is still alive.

`kill(pid, 0)` also succeeds for a zombie: a process that has died but that its parent has not
reaped yet. A worker killed with its pool leaves the pool process to init, which may reap it
only later (1.4-1.7 s on our Firecracker VMs, whose init polls), so a zombie counts as gone.
Here (not in the worker) because the API judges a stuck run by the same rule as recovery.
"""

import os
import socket
from pathlib import Path

# /proc/<pid>/stat states of a process that has died: zombie, dead.
_DEAD_STATES = frozenset({"Z", "X", "x"})


def pid_running(pid: int) -> bool:
    """True while `pid` is a live process of this machine; False when gone or a zombie."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # another user's process: it exists
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return False  # reaped since kill(0)
    except OSError:
        return True  # no /proc to ask: kill(0) is all we know
    # The state follows the command name, which is in parentheses and may contain spaces.
    fields = stat.rpartition(")")[2].split()
    return not fields or fields[0] not in _DEAD_STATES


def process_identity() -> str:
    """host:pid of this process, so a process on the same host can tell whether it died."""
    return f"{socket.gethostname()}:{os.getpid()}"


def owner_dead(identity: str | None) -> bool:
    """True when `identity` (host:pid) ran on this host and its process is gone. Another
    host's process is never judged here: its heartbeat or lease deadline says."""
    if not identity or ":" not in identity:
        return False
    host, _, pid = identity.rpartition(":")
    if host != socket.gethostname() or not pid.isdigit():
        return False
    return not pid_running(int(pid))
