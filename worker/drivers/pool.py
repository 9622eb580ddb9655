"""One SSH connection per host, reused across the runs of this worker process.

Opening a connection (TCP, key exchange, authentication) costs several round trips; a worker
runs one experiment's runs back to back on the same hosts, so it keeps them open. A connection
that dropped is reopened on next use (Host opens lazily; an SSH error closes it).
"""

import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

from worker.drivers.host import Host, HostSpec

T = TypeVar("T")
R = TypeVar("R")

_hosts: dict[HostSpec, Host] = {}
_lock = threading.Lock()


def host_for(spec: HostSpec) -> Host:
    with _lock:
        host = _hosts.get(spec)
        if host is None:
            host = _hosts[spec] = Host(spec)
        elif not host.connected():
            host.close()  # dropped since the last run: reopened lazily
        return host


def close_all() -> None:
    with _lock:
        for host in _hosts.values():
            host.close()
        _hosts.clear()


def on_each(items: list[T], fn: Callable[[T], R]) -> list[R]:
    """fn over items, one thread each (SSH calls to different hosts overlap); results in
    order, the first exception raised. One item runs inline."""
    if len(items) <= 1:
        return [fn(item) for item in items]
    with ThreadPoolExecutor(max_workers=len(items)) as executor:
        return list(executor.map(fn, items))
