"""Preflight: every host reachable, clocks close, tools present (versions recorded), free ports."""

import random
import shlex
from dataclasses import dataclass, field

from worker.drivers.errors import DriverError, ToolMissingError
from worker.drivers.host import Host, HostSpec, parse_ss
from worker.drivers.loadgen import LoadGenerator
from worker.drivers.memaslap import MemaslapDriver
from worker.drivers.memcached import MemcachedDriver
from worker.drivers.memtier import MemtierDriver
from worker.drivers.middleware import MiddlewareDriver
from worker.runs.plan import RunPlan

# Series of different hosts are aligned on unix time; beyond this they would not line up.
MAX_CLOCK_SKEW_S = 2.0
# Below Linux's ephemeral range (32768+), so an outgoing connection never holds our port.
PORT_RANGE = (20000, 32000)


@dataclass
class HostFacts:
    is_root: bool
    clock_offset_s: float
    listening: set[int]
    allocated: set[int] = field(default_factory=set)


def inspect_host(host: Host, workdir: str) -> HostFacts:
    """Connect and learn what the later steps need, in one round trip; raises naming the host."""
    q = shlex.quote(workdir)
    out = host.run(
        f"mkdir -p {q} && id -u && command -v ss >/dev/null && echo ss-ok || echo ss-missing; "
        "ss -Htln || true"
    ).splitlines()
    offset, uncertainty = host.clock_offset_s()
    if len(out) < 2 or out[1] != "ss-ok":
        raise ToolMissingError(f"{host.label}: `ss` (iproute2) not found")
    if abs(offset) - uncertainty > MAX_CLOCK_SKEW_S:
        raise DriverError(
            f"{host.label}: clock differs from the worker's by {offset:+.2f} s "
            f"(more than {MAX_CLOCK_SKEW_S} s; run ntp/chrony)"
        )
    return HostFacts(
        is_root=out[0].strip() == "0", clock_offset_s=offset, listening=parse_ss("\n".join(out[2:]))
    )


def free_port(facts: HostFacts, rng: random.Random) -> int:
    """A port nothing listens on and this run has not handed out yet."""
    lo, hi = PORT_RANGE
    start = rng.randrange(lo, hi)
    for i in range(hi - lo):
        port = lo + (start - lo + i) % (hi - lo)
        if port not in facts.listening and port not in facts.allocated:
            facts.allocated.add(port)
            return port
    raise DriverError("no free port left in the range")


def choose_load_generator(choice: str, client_hosts: list[Host]) -> type[LoadGenerator]:
    """memtier when selected or (auto) installed on every client host; else memaslap."""
    if choice == "memaslap":
        return MemaslapDriver
    if choice == "memtier":
        return MemtierDriver
    if client_hosts and all(MemtierDriver(h).installed() for h in client_hosts):
        return MemtierDriver
    return MemaslapDriver


def check_tools(
    plan: RunPlan,
    hosts: dict[HostSpec, Host],
    loadgen: type[LoadGenerator],
    middleware_binary: str | None,
) -> dict[str, str]:
    """Every tool each host needs, with its version (the first line it prints)."""
    versions: dict[str, str] = {}
    for spec in {s.host for s in plan.servers}:
        versions["memcached"] = MemcachedDriver(hosts[spec]).check_version()
    for spec in {m.host for m in plan.middlewares}:
        mw = MiddlewareDriver(hosts[spec], binary=middleware_binary)
        versions["mcscope-middleware"] = mw.check_version()
    for spec in {c.host for c in plan.clients}:
        versions[loadgen.tool_name] = loadgen(hosts[spec]).check_version()
    if plan.populate:
        for spec in {c.host for c in plan.clients}:
            MemtierDriver(hosts[spec]).check()
    return versions
