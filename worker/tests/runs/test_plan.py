"""Pure planning and command building: placement, targets, flags, and quoting."""

import shlex
from typing import Any

import pytest

from backend.domain.grid import effective_parameters
from backend.domain.parameters import ParameterError, coerce, virtual_clients
from worker.drivers.host import Host, HostSpec
from worker.drivers.memaslap import MemaslapDriver, config_text
from worker.drivers.memtier import MemtierDriver
from worker.drivers.middleware import MiddlewareDriver
from worker.runs.middleware_cap import middleware_buffer_cap
from worker.runs.plan import PlanError, build_plan
from worker.runs.testbed import TestbedLayout

A = HostSpec("a", "10.0.0.1", "u", 22, "/k")
B = HostSpec("b", "10.0.0.2", "u", 22, "/k")


def _layout(**roles: tuple[HostSpec, ...]) -> TestbedLayout:
    return TestbedLayout(
        lock_key=1,
        name="t",
        servers=roles.get("servers", (A,)),
        middlewares=roles.get("middlewares", (A,)),
        clients=roles.get("clients", (A, B)),
        middleware_binary="/bin/mw",
        workroot="/w",
    )


HOST_MEMORY = 16 << 30


def _plan(tool: str = "memaslap", layout: TestbedLayout | None = None, **params: Any) -> Any:
    ports = iter(range(20000, 21000))
    return build_plan(
        effective_parameters(params, {}),
        layout or _layout(),
        tool,
        10,
        lambda _h: next(ports),
        memory_of=lambda _h: HOST_MEMORY,
    )


def test_plan_zero_middlewares_targets_servers_round_robin() -> None:
    plan = _plan(servers=2, middlewares=0, client_machines=2, instances_per_machine=2)
    assert [c.target for c in plan.clients] == ["server:0", "server:1", "server:0", "server:1"]
    assert [c.host.name for c in plan.clients] == ["a", "a", "b", "b"]
    assert len({s.port for s in plan.servers}) == 2 and not plan.middlewares


def test_plan_two_middlewares_one_instance_each_per_machine() -> None:
    plan = _plan(servers=3, middlewares=2, client_machines=3, replication="half", workers=16)
    assert len(plan.clients) == 6
    assert [c.target for c in plan.clients[:2]] == ["middleware:0", "middleware:1"]
    assert all(m.replication == 2 and m.workers == 16 for m in plan.middlewares)
    assert plan.clients[1].spec.targets == ((A.address, plan.middlewares[1].port),)


@pytest.mark.parametrize(
    "params",
    [
        {"middlewares": 0, "servers": 2, "client_machines": 2, "instances_per_machine": 2},
        {"middlewares": 1, "client_machines": 3, "threads_per_instance": 2},
        {"middlewares": 2, "client_machines": 3, "clients_per_thread": 4},
        {
            "middlewares": 2,
            "client_machines": 2,
            "instances_per_machine": 2,
            "threads_per_instance": 2,
        },
    ],
)
def test_plan_starts_the_clients_the_analyses_count(params: dict[str, Any]) -> None:
    """The interactive law's N (virtual_clients) is what the planner starts."""
    plan = _plan(**params)
    started = sum(c.spec.threads * c.spec.clients_per_thread for c in plan.clients)
    assert started == virtual_clients(effective_parameters(params, {}))


def test_plan_populates_only_reads_with_memtier() -> None:
    assert _plan("memtier", ratio="1:9").populate
    assert not _plan("memtier", ratio="1:0").populate
    assert not _plan("memaslap", ratio="1:9").populate


def test_plan_without_server_hosts_fails() -> None:
    with pytest.raises(PlanError, match="no server host"):
        _plan(layout=_layout(servers=()))


class RecordingHost(Host):
    """A Host that records commands instead of running them."""

    def __init__(self) -> None:
        super().__init__(A)
        self.commands: list[str] = []

    def run(self, command: str, timeout: float = 30, check: bool = True) -> str:
        self.commands.append(command)
        # Host.start launches and reads the PID file in one command.
        return "4242 1700000000.5\n" if "nohup sh -c" in command else ""


def test_load_generator_argv_from_typed_values() -> None:
    spec = _plan(ratio="1:9", multiget_size=3, clients_per_thread=4).clients[0].spec
    argv = MemaslapDriver(RecordingHost(), binary="/usr/bin/memcaslap").argv(spec, "/w", "c")
    assert argv[argv.index("-c") + 1] == "4" and argv[argv.index("-d") + 1] == "3"
    assert argv[argv.index("-t") + 1] == "10s"
    assert "cmd\n0 0.100000\n1 0.900000\n" in config_text(spec)
    memtier = MemtierDriver(RecordingHost(), binary="memtier_benchmark").argv(spec, "/w", "c")
    assert "--multi-key-get=3" in memtier and "--ratio=1:9" in memtier
    assert "--json-out-file=/w/c.json" in memtier


def test_middleware_argv_flags() -> None:
    argv = MiddlewareDriver(RecordingHost(), binary="/bin/mw").argv(
        listen="127.0.0.1",
        port=20001,
        workers=8,
        sharded=True,
        servers=[("127.0.0.1", 1), ("127.0.0.1", 2)],
        replication=2,
        queue_capacity=64,
        max_buffered_bytes=5 << 20,
        stats_dir="/w/s",
    )
    assert argv[argv.index("-m") + 1 : argv.index("-r")] == ["127.0.0.1:1", "127.0.0.1:2"]
    assert argv[argv.index("-s") + 1] == "true" and argv[argv.index("--stats-dir") + 1] == "/w/s"
    assert argv[argv.index("--max-buffered-bytes") + 1] == str(5 << 20)


def test_each_middleware_is_planned_with_the_cap_of_its_host_and_the_design() -> None:
    """2 machines x 1 instance per middleware x 4 threads x 8 clients: 64 connections to each
    of the 2 middlewares, each with a 10-key multi-get of 100 KB values."""
    plan = _plan(
        servers=1,
        middlewares=2,
        client_machines=2,
        threads_per_instance=4,
        clients_per_thread=8,
        value_size=100_000,
        multiget_size=10,
    )
    want = middleware_buffer_cap(
        host_memory_bytes=HOST_MEMORY, value_size=100_000, multiget_size=10, connections=64
    )
    assert [m.max_buffered_bytes for m in plan.middlewares] == [want, want]
    # Recorded with the run (Run.hosts) beside the memory it came from.
    recorded = plan.hosts_json()["middleware"]
    assert [(h["max_buffered_bytes"], h["host_memory_bytes"]) for h in recorded] == [
        (want, HOST_MEMORY)
    ] * 2


def test_the_cap_covers_the_design_within_an_eighth_of_the_host() -> None:
    gib = 1 << 30
    # 64 connections x (10 + 1 values of 100,300 B + 16 KiB) x 2 = 143,314,944 B
    need = middleware_buffer_cap(
        host_memory_bytes=16 * gib, value_size=100_000, multiget_size=10, connections=64
    )
    assert need == 64 * (11 * 100_300 + 16 * 1024) * 2
    # A small design keeps the 64 MiB floor; a huge one stops at an eighth of the host.
    small = middleware_buffer_cap(
        host_memory_bytes=16 * gib, value_size=64, multiget_size=1, connections=2
    )
    assert small == 64 << 20
    huge = middleware_buffer_cap(
        host_memory_bytes=16 * gib, value_size=1_000_000, multiget_size=10, connections=4096
    )
    assert huge == 2 * gib
    # A tiny host: its eighth, never under the middleware's 1 MiB flag minimum.
    assert (
        middleware_buffer_cap(
            host_memory_bytes=4 << 20, value_size=64, multiget_size=1, connections=1
        )
        == 1 << 20
    )


def test_start_quotes_every_value() -> None:
    host = RecordingHost()
    proc = host.start(["tool", "a b", "$(touch /tmp/x)", "'q'"], "/w/odd dir", "n")
    assert proc.pid == 4242
    launch = host.commands[0]
    # The launch is `cd DIR || exit 1; rm ...; nohup sh -c SCRIPT ...`: the script must come
    # back intact as one word and hold the argv exactly.
    words = shlex.split(launch.split("; nohup sh -c ", 1)[1])
    script = words[0]
    assert shlex.join(["tool", "a b", "$(touch /tmp/x)", "'q'"]) in script
    assert shlex.split(launch.split(" || ", 1)[0]) == ["cd", "/w/odd dir"]


@pytest.mark.parametrize(
    ("name", "value"),
    [("ratio", "1:9; rm -rf /"), ("workers", "8 && reboot"), ("load_generator", "sh")],
)
def test_schema_rejects_shell_text(name: str, value: str) -> None:
    with pytest.raises(ParameterError):
        coerce(name, value)
