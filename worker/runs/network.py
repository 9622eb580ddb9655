"""Which legs of the network a run and a testbed measure (worker.drivers.netprobe does it).

A run measures, before its load starts, the paths its requests take on the service ports
(client -> the middleware or server it targets, middleware -> each server), and keeps them
in Run.hosts["network"]. A testbed measures the same role pairs on the hosts' SSH ports (no
service listens between runs) and, on request, each role host's upload with iperf3.
"""

from collections.abc import Callable
from typing import Any

from worker.drivers.host import Host, HostSpec
from worker.drivers.netprobe import Leg, measure_upload, probe
from worker.runs.plan import RunPlan
from worker.runs.testbed import TestbedLayout

HostFor = Callable[[HostSpec], Host]


def run_legs(plan: RunPlan) -> list[tuple[HostSpec, Leg]]:
    """Each distinct (source host, target address, port) of the plan, clients first."""
    legs: dict[tuple[str, str, int], tuple[HostSpec, Leg]] = {}
    targets = {f"middleware:{m.index}": ("middleware", m.host, m.port) for m in plan.middlewares}
    targets |= {f"server:{s.index}": ("server", s.host, s.port) for s in plan.servers}
    for c in plan.clients:
        role, host, port = targets[c.target]
        leg = Leg("client", c.host.name, role, host.name, host.address, port)
        legs.setdefault((c.host.name, host.address, port), (c.host, leg))
    for m in plan.middlewares:
        for s in m.servers:
            leg = Leg("middleware", m.host.name, "server", s.host.name, s.host.address, s.port)
            legs.setdefault((m.host.name, s.host.address, s.port), (m.host, leg))
    return list(legs.values())


def testbed_legs(layout: TestbedLayout) -> list[tuple[HostSpec, Leg]]:
    """Every client host to every middleware host (or server without middlewares), every
    middleware host to every server host, on the target's SSH port."""
    first = ("middleware", layout.middlewares) if layout.middlewares else ("server", layout.servers)
    pairs = [("client", layout.clients, *first)]
    if layout.middlewares:
        pairs.append(("middleware", layout.middlewares, "server", layout.servers))
    return [
        (src, Leg(src_role, src.name, dst_role, dst.name, dst.address, dst.port))
        for src_role, sources, dst_role, targets in pairs
        for src in sources
        for dst in targets
    ]


def measure_legs(legs: list[tuple[HostSpec, Leg]], host_for: HostFor) -> dict[str, Any]:
    return probe([(host_for(spec), leg) for spec, leg in legs])


def measure_bandwidth(
    layout: TestbedLayout, host_for: HostFor, workdir: str
) -> list[dict[str, Any]]:
    """Each host's upload to the first host of the role it sends to: clients and servers to
    the first middleware, middlewares to the first server (without middlewares, clients to
    the first server and servers to the first client)."""
    peer = {
        "client": layout.middlewares[:1] or layout.servers[:1],
        "middleware": layout.servers[:1],
        "server": layout.middlewares[:1] or layout.clients[:1],
    }
    hosts = {"client": layout.clients, "middleware": layout.middlewares, "server": layout.servers}
    out = []
    for role, senders in hosts.items():
        for sender in senders:
            for receiver in peer[role]:
                if receiver == sender:
                    continue
                out.append(
                    measure_upload(
                        host_for(sender), host_for(receiver), receiver.address, workdir, role
                    )
                )
    return out
