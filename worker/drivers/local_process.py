"""Whether a process of this machine still runs: the rule lives in backend.core.processes (the
API judges stuck runs by it too); imported here for the drivers and recovery."""

from backend.core.processes import pid_running

__all__ = ["pid_running"]
