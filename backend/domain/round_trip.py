"""The network between roles as stored with a testbed and a run: one home for its shape.

A probe measures, from a host of one role, the TCP connect round trip to a host of the next
role (client -> middleware, middleware -> server; a connect is one SYN / SYN-ACK exchange,
so it needs no ping and no raw socket); bandwidth is iperf3's, measured on request with
each role's host sending. Testbed.network and Run.hosts["network"] hold `NetworkProbe`
dicts; the readers below are what the breakdown and the model take from them.
"""

from __future__ import annotations

import statistics
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
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


@dataclass(frozen=True)
class RoleBandwidths:
    """Per role, the bandwidth its hosts send at (Mbit/s) and where the figure comes from."""

    mbit_s: dict[str, float] = field(default_factory=dict)
    source: dict[str, str] = field(default_factory=dict)


def role_bandwidths(
    caps: Mapping[str, Sequence[tuple[float | None, str | None]]], probe: dict[str, Any] | None
) -> RoleBandwidths:
    """Per role, its slowest host's link cap when every host of the role has one (a shaped or
    sized link is known exactly: caps maps role -> (cap, basis) per host), else iperf3's
    slowest upload (bandwidths_mbit_s); a role with neither is left out."""
    measured = bandwidths_mbit_s(probe)
    out = RoleBandwidths()
    for role in set(caps) | set(measured):
        hosts = caps.get(role) or []
        if hosts and all(cap is not None for cap, _ in hosts):
            cap, basis = min(hosts, key=lambda h: h[0] or 0.0)
            out.mbit_s[role] = float(cap or 0.0)
            out.source[role] = f"link cap ({basis or 'custom'})"
        elif role in measured:
            out.mbit_s[role] = measured[role]
            out.source[role] = "iperf3"
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
