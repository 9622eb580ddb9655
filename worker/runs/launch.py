"""Starting a role's processes: one thread per host, each host's processes in order.

A start is one round trip (Host.start); hosts do not wait for each other. Every process that
started is handed to `record` (so the run's cleanup stops it) before the first error is raised,
and readiness is polled on each host at once.
"""

from collections.abc import Callable
from dataclasses import dataclass

from worker.drivers.host import Host, HostSpec, RemoteProcess
from worker.drivers.pool import on_each


@dataclass(frozen=True)
class Launch:
    """One process to start on `host`: `start` launches it and returns it."""

    host: HostSpec
    source: str  # "server:0", "middleware:1", "client:2"
    start: Callable[[Host], RemoteProcess]
    # Where to connect after SIGTERM so it exits at once (see Host.stop_in_order).
    wake: tuple[str, int] | None = None


def launch_on_hosts(
    launches: list[Launch],
    host_for: Callable[[HostSpec], Host],
    record: Callable[[Launch, RemoteProcess], None],
) -> list[RemoteProcess]:
    """Start every launch, hosts in parallel; the processes in the order of `launches`.
    `record` runs in the calling thread (it may write to the database session)."""
    by_host: dict[HostSpec, list[Launch]] = {}
    for item in launches:
        by_host.setdefault(item.host, []).append(item)
    groups = list(by_host.values())
    hosts = {spec: host_for(spec) for spec in by_host}  # here, not in the threads

    def on_host(items: list[Launch]) -> tuple[list[RemoteProcess], Exception | None]:
        procs: list[RemoteProcess] = []
        for item in items:
            try:
                procs.append(item.start(hosts[item.host]))
            except Exception as exc:  # raised below, once the started ones are recorded
                return procs, exc
        return procs, None

    started: dict[str, RemoteProcess] = {}
    error: Exception | None = None
    for items, (procs, exc) in zip(groups, on_each(groups, on_host), strict=True):
        started |= {item.source: proc for item, proc in zip(items, procs, strict=False)}
        error = error or exc
    for item in launches:  # recorded in plan order, whichever host was quicker
        if item.source in started:
            record(item, started[item.source])
    if error is not None:
        raise error
    return [started[item.source] for item in launches]


def wait_listening(procs: list[tuple[RemoteProcess, int]]) -> None:
    """Until each process listens on its port (or fails naming it); hosts in parallel, one
    round trip per process."""
    by_host: dict[Host, list[tuple[RemoteProcess, int]]] = {}
    for proc, port in procs:
        by_host.setdefault(proc.host, []).append((proc, port))

    def on_host(host: Host) -> None:
        for proc, port in by_host[host]:
            host.wait_listening(proc, port)

    on_each(list(by_host), on_host)
