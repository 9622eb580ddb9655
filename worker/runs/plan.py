"""Pure planning: a configuration's typed parameters -> which process runs where, on what port.

Targets: with M >= 1 middlewares each client machine runs `instances_per_machine` instances
per middleware (so two middlewares mean two instances, as memtier talks to one target; the
rule `backend.domain.parameters.load_generator_instances` every count of clients uses);
with no middleware, instance i of a machine targets server (machine * instances + i) % S,
as in the baselines. Servers are populated with the whole key space when reads happen.
"""

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from backend.domain.load_generators import load_generator_spec
from backend.domain.parameters import resolve_replication, virtual_clients
from worker.drivers.host import HostSpec
from worker.drivers.loadgen import LoadSpec
from worker.drivers.memcached import memory_mb
from worker.runs.middleware_cap import middleware_buffer_cap
from worker.runs.testbed import TestbedLayout

PortFor = Callable[[HostSpec], int]
MemoryOf = Callable[[HostSpec], int]  # a host's memory in bytes (MemTotal, read on it)


class PlanError(ValueError):
    """The configuration cannot be placed on this testbed."""


@dataclass(frozen=True)
class ServerPlan:
    index: int
    host: HostSpec
    port: int
    memory_mb: int

    @property
    def name(self) -> str:
        return f"server-{self.index}"


@dataclass(frozen=True)
class MiddlewarePlan:
    index: int
    host: HostSpec
    port: int
    workers: int
    sharded: bool
    replication: int
    queue_capacity: int
    servers: tuple[ServerPlan, ...]
    # --max-buffered-bytes (worker.runs.middleware_cap) and the host memory it came from.
    max_buffered_bytes: int
    host_memory_bytes: int

    @property
    def name(self) -> str:
        return f"middleware-{self.index}"


@dataclass(frozen=True)
class ClientPlan:
    index: int
    machine: int
    host: HostSpec
    target: str  # "middleware:0" or "server:1"
    spec: LoadSpec

    @property
    def name(self) -> str:
        return f"client-{self.index}"


@dataclass(frozen=True)
class RunPlan:
    tool: str  # a registered load generator (backend.domain.load_generators)
    servers: tuple[ServerPlan, ...]
    middlewares: tuple[MiddlewarePlan, ...]
    clients: tuple[ClientPlan, ...]
    populate: bool

    def hosts_json(self) -> dict[str, Any]:
        """What Run.hosts records: every instance with its machine and port."""
        return {
            "server": [
                {"name": s.name, "host": s.host.name, "address": s.host.address, "port": s.port}
                for s in self.servers
            ],
            "middleware": [
                {
                    "name": m.name,
                    "host": m.host.name,
                    "address": m.host.address,
                    "port": m.port,
                    "max_buffered_bytes": m.max_buffered_bytes,
                    "host_memory_bytes": m.host_memory_bytes,
                }
                for m in self.middlewares
            ],
            "client": [
                {"name": c.name, "host": c.host.name, "machine": c.machine, "target": c.target}
                for c in self.clients
            ],
        }


def _pick(hosts: tuple[HostSpec, ...], i: int, role: str) -> HostSpec:
    if not hosts:
        raise PlanError(f"the testbed has no {role} host")
    return hosts[i % len(hosts)]


def build_plan(
    params: dict[str, Any],
    layout: TestbedLayout,
    tool: str,
    run_time_s: int,
    port_for: PortFor,
    server_ports: dict[int, int] | None = None,
    *,
    memory_of: MemoryOf,
) -> RunPlan:
    """Place every process; `params` are effective parameters checked by the schema.
    `server_ports`: servers already running (kept from the previous run), by index;
    `memory_of`: each middleware host's memory, its buffer cap's bound."""
    n_servers = int(params["servers"])
    kept = server_ports or {}
    servers = tuple(
        ServerPlan(
            i,
            host := _pick(layout.servers, i, "server"),
            kept[i] if i in kept else port_for(host),
            memory_mb(int(params["key_maximum"]), int(params["value_size"])),
        )
        for i in range(n_servers)
    )
    replication = resolve_replication(params["replication"], n_servers)
    n_middlewares = int(params["middlewares"])
    # Every middleware serves the same share of the clients (load_generator_instances).
    connections = virtual_clients(params) // max(n_middlewares, 1)
    middlewares = tuple(
        MiddlewarePlan(
            j,
            host := _pick(layout.middlewares, j, "middleware"),
            port_for(host),
            int(params["workers"]),
            bool(params["sharded"]),
            replication,
            int(params["queue_capacity"]),
            servers,
            middleware_buffer_cap(
                host_memory_bytes=(memory := memory_of(host)),
                value_size=int(params["value_size"]),
                multiget_size=int(params["multiget_size"]),
                connections=connections,
            ),
            memory,
        )
        for j in range(n_middlewares)
    )
    if int(params["rate_limit"]) > 0 and not load_generator_spec(tool).rate_limits:
        raise PlanError(f"rate_limit is set but {tool} cannot limit the request rate")
    per_machine = int(params["instances_per_machine"])
    clients: list[ClientPlan] = []
    for machine in range(int(params["client_machines"])):
        host = _pick(layout.clients, machine, "client")
        if middlewares:
            targets = [
                (f"middleware:{m.index}", (m.host.address, m.port))
                for m in middlewares
                for _ in range(per_machine)
            ]
        else:
            targets = [
                (f"server:{s.index}", (s.host.address, s.port))
                for k in range(per_machine)
                for s in [servers[(machine * per_machine + k) % n_servers]]
            ]
        for target, address in targets:
            spec = LoadSpec(
                targets=(address,),
                threads=int(params["threads_per_instance"]),
                clients_per_thread=int(params["clients_per_thread"]),
                ratio=str(params["ratio"]),
                multiget_size=int(params["multiget_size"]),
                value_size=int(params["value_size"]),
                key_maximum=int(params["key_maximum"]),
                run_time_s=run_time_s,
                rate_limit=int(params["rate_limit"]),
            )
            clients.append(ClientPlan(len(clients), machine, host, target, spec))
    reads = clients[0].spec.set_get[1] > 0 if clients else False
    populate = reads and not load_generator_spec(tool).writes_own_keys
    return RunPlan(tool, servers, middlewares, tuple(clients), populate)
