"""Starting a role's processes host by host: plan order kept, every started process recorded
before the first error is raised (so cleanup stops it), other hosts not held back by a failure."""

import threading
from collections.abc import Callable

import pytest

from worker.drivers.errors import ProcessDiedError
from worker.drivers.host import Host, HostSpec, RemoteProcess
from worker.runs.launch import Launch, launch_on_hosts


def _spec(name: str) -> HostSpec:
    return HostSpec(name, f"10.0.0.{len(name)}", "root", 22, "/dev/null")


A, B = _spec("a"), _spec("bb")


def _starter(
    pid: int, fail: bool = False, meet: threading.Barrier | None = None
) -> Callable[[Host], RemoteProcess]:
    def start(host: Host) -> RemoteProcess:
        if meet is not None:
            meet.wait(timeout=30)  # both hosts' first starts run at the same time
        if fail:
            raise ProcessDiedError(f"{host.spec.name}: {pid} did not start")
        return RemoteProcess(host, f"p{pid}", "/w", pid, 0.0)

    return start


def test_processes_come_back_and_are_recorded_in_plan_order() -> None:
    meet = threading.Barrier(2)
    launches = [
        Launch(A, "server:0", _starter(10, meet=meet)),
        Launch(B, "server:1", _starter(11, meet=meet)),
        Launch(A, "server:2", _starter(12)),
    ]
    recorded: list[str] = []
    procs = launch_on_hosts(launches, Host, lambda item, proc: recorded.append(item.source))
    assert [p.pid for p in procs] == [10, 11, 12]
    assert [p.host.spec for p in procs] == [A, B, A]
    assert recorded == ["server:0", "server:1", "server:2"]


def test_a_failure_still_records_what_started_then_raises() -> None:
    launches = [
        Launch(A, "server:0", _starter(10)),
        Launch(A, "server:1", _starter(11, fail=True)),
        Launch(A, "server:2", _starter(12)),  # not tried: the host's order stops at the failure
        Launch(B, "server:3", _starter(13)),
    ]
    recorded: list[int] = []
    with pytest.raises(ProcessDiedError, match="11 did not start"):
        launch_on_hosts(launches, Host, lambda item, proc: recorded.append(proc.pid))
    assert recorded == [10, 13]
