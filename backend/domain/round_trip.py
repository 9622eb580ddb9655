"""The network between roles as stored with a testbed and a run: one home for its shape.

A probe measures, from a host of one role, the TCP connect round trip to a host of the next
role (client -> middleware, middleware -> server; a connect is one SYN / SYN-ACK exchange,
so it needs no ping and no raw socket); bandwidth is iperf3's, measured on request with
each role's host sending. Testbed.network and Run.hosts["network"] hold `NetworkProbe`
dicts; the readers below are what the breakdown and the model take from them.
"""

from __future__ import annotations

import statistics
from typing import Any

PROBE_METHOD = "tcp_connect"
SAMPLES = 5
# Testbeds (by kind; None is the built-in local one) whose hosts share this machine's cores:
# the local one, and a rehearsal's namespace hosts.
SHARED_CPU_KINDS: frozenset[str | None] = frozenset({None, "local", "rehearsal"})


def leg_rtts_us(probe: dict[str, Any] | None, src: str, dst: str) -> list[float]:
    """Each measured path's median round trip (us) from a `src` host to a `dst` host."""
    if not probe:
        return []
    return [
        float(p["rtt_us"])
        for p in probe.get("paths", [])
        if p.get("from_role") == src and p.get("to_role") == dst and p.get("rtt_us") is not None
    ]


def leg_rtt_us(probes: list[dict[str, Any] | None], src: str, dst: str) -> float | None:
    """The median round trip (us) of a leg over several probes (a configuration's runs)."""
    values = [v for p in probes for v in leg_rtts_us(p, src, dst)]
    return statistics.median(values) if values else None


def bandwidths_mbit_s(probe: dict[str, Any] | None) -> dict[str, float]:
    """Per role, the smallest upload iperf3 measured from one of its hosts (the slowest host
    bounds its role: requests are spread evenly)."""
    out: dict[str, float] = {}
    for b in (probe or {}).get("bandwidth", []):
        role, value = b.get("role"), b.get("mbit_s")
        if role is not None and value is not None:
            out[role] = min(out.get(role, float("inf")), float(value))
    return out


def rest_label(testbed_kind: str | None, shared_host: bool) -> str:
    """What the breakdown's network time beyond one measured round trip is on this testbed.

    Client response time minus middleware response time holds the client -> middleware
    round trip plus everything the middleware's timers do not see: the load generator's own
    time between the reply's arrival and its clock reading, the kernels' TCP work, and on
    one machine waiting for a core the other processes hold."""
    if testbed_kind in SHARED_CPU_KINDS or shared_host:
        return "client-side time, includes the load generator's CPU and waiting for shared cores"
    return "client-side and kernel time: the load generator's CPU and both TCP stacks"
