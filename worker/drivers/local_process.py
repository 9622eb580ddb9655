"""Whether a process of this machine still runs.

`kill(pid, 0)` also succeeds for a zombie: a process that has died but that its parent has not
reaped yet. A worker killed with its pool leaves the pool process to init, which may reap it
only later (1.4-1.7 s on our Firecracker VMs, whose init polls), so a zombie counts as gone.
"""

import os
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
