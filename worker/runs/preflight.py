"""Preflight: every host reachable, clocks close, tools present (versions recorded), free ports."""

import random
import shlex
import time
from dataclasses import dataclass, field

from backend.domain.load_generators import AUTO
from worker.drivers.errors import DriverError, ToolMissingError
from worker.drivers.host import Host, HostSpec, parse_ss
from worker.drivers.loadgen import LoadGenerator
from worker.drivers.memcached import MemcachedDriver
from worker.drivers.middleware import MiddlewareDriver
from worker.drivers.registry import driver_for, drivers, populator
from worker.drivers.tool import ToolDriver, probe_tools
from worker.runs.plan import RunPlan

# Series of different hosts are aligned on unix time; beyond this they would not line up.
MAX_CLOCK_SKEW_S = 2.0
# Below Linux's ephemeral range (32768+), so an outgoing connection never holds our port.
PORT_RANGE = (20000, 32000)
# The CPU's model name, one line (empty where /proc/cpuinfo has none).
_CPU_MODEL = "sed -n 's/^model name[[:space:]]*:[[:space:]]*//p' /proc/cpuinfo | head -n 1"
# MemTotal in kB (the kernel's unit there).
_MEM_TOTAL_KB = "sed -n 's/^MemTotal:[[:space:]]*\\([0-9]*\\) kB$/\\1/p' /proc/meminfo"


@dataclass
class HostFacts:
    is_root: bool
    clock_offset_s: float
    listening: set[int]
    allocated: set[int] = field(default_factory=set)
    # /proc/cpuinfo's "model name" (None where the kernel gives none, e.g. some ARM hosts):
    # recorded with the run so Compare tells runs on different hardware apart.
    cpu_model: str | None = None
    # MemTotal of /proc/meminfo in bytes: bounds the middleware's buffer cap on this host
    # (worker.runs.middleware_cap). The total, not what is free now, so every repetition of
    # a configuration on this host runs with the same cap.
    memory_bytes: int = 0


def inspect_host(host: Host, workdir: str) -> HostFacts:
    """Connect and learn what the later steps need, in one round trip; raises naming the host."""
    q = shlex.quote(workdir)
    before = time.time()
    out = host.run(
        f'date +%s.%N; echo "cpu:$({_CPU_MODEL})"; echo "mem:$({_MEM_TOTAL_KB})"; '
        f"mkdir -p {q} && id -u && command -v ss >/dev/null && echo ss-ok "
        "|| echo ss-missing; ss -Htln || true"
    ).splitlines()
    after = time.time()
    # The remote clock was read within this round trip: a first offset, good to half of it.
    offset, uncertainty = float(out.pop(0)) - (before + after) / 2, (after - before) / 2
    cpu_model = out.pop(0).removeprefix("cpu:").strip() or None
    memory_kb = out.pop(0).removeprefix("mem:").strip()
    if not memory_kb.isdigit():
        raise DriverError(f"{host.label}: no MemTotal in /proc/meminfo")
    if abs(offset) + uncertainty > MAX_CLOCK_SKEW_S:  # undecided: measure with quicker probes
        offset, uncertainty = host.clock_offset_s()
    if len(out) < 2 or out[1] != "ss-ok":
        raise ToolMissingError(f"{host.label}: `ss` (iproute2) not found")
    if abs(offset) - uncertainty > MAX_CLOCK_SKEW_S:
        raise DriverError(
            f"{host.label}: clock differs from the worker's by {offset:+.2f} s "
            f"(more than {MAX_CLOCK_SKEW_S} s; run ntp/chrony)"
        )
    return HostFacts(
        is_root=out[0].strip() == "0",
        clock_offset_s=offset,
        listening=parse_ss("\n".join(out[2:])),
        cpu_model=cpu_model,
        memory_bytes=int(memory_kb) * 1024,
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


def probe_host(
    host: Host, *, server: bool, middleware: bool, client: bool, middleware_binary: str | None
) -> dict[str, str | None]:
    """Versions (None: missing) of every tool this host's roles may need, in one round trip:
    memcached, the middleware, and every registered load generator."""
    tools: list[ToolDriver] = []
    if server:
        tools.append(MemcachedDriver(host))
    if middleware:
        tools.append(MiddlewareDriver(host, binary=middleware_binary))
    if client:
        tools += [driver(host) for driver in drivers()]
    return probe_tools(host, tools)


def choose_load_generator(
    choice: str, client_hosts: list[Host], found: dict[Host, dict[str, str | None]]
) -> type[LoadGenerator]:
    """The selected tool, or (auto) the first registered one found on every client host."""
    if choice != AUTO:
        return driver_for(choice)
    candidates = drivers()
    for driver in candidates:
        if client_hosts and all(found[h].get(driver.tool) for h in client_hosts):
            return driver
    return candidates[-1]  # not installed anywhere: check_tools names what is missing


def check_tools(
    plan: RunPlan,
    hosts: dict[HostSpec, Host],
    loadgen: type[LoadGenerator],
    found: dict[Host, dict[str, str | None]],
) -> dict[str, str]:
    """Every tool each host needs, with its version (the first line it prints); raises
    ToolMissingError naming the host and the tool."""
    needs: list[tuple[HostSpec, str, str]] = []  # host, tool, key in tool_versions
    needs += [(s.host, MemcachedDriver.tool, "memcached") for s in plan.servers]
    needs += [(m.host, MiddlewareDriver.tool, MiddlewareDriver.tool) for m in plan.middlewares]
    needs += [(c.host, loadgen.tool, loadgen.tool_name) for c in plan.clients]
    if plan.populate:
        needs += [(c.host, populator().tool, populator().tool_name) for c in plan.clients]
    versions: dict[str, str] = {}
    for spec, tool, key in needs:
        host = hosts[spec]
        version = found[host].get(tool)
        if version is None:
            raise ToolMissingError(f"{host.label}: {tool} not found")
        versions[key] = version
    return versions
