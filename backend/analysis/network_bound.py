"""The network bound of each role: how many requests a host's measured bandwidth can carry.

A host's link limits what it sends (iperf measures each role's upload, DOMAIN.md section 7),
so each role is bounded by bandwidth / bytes it sends per client request:
- a client sends set requests and get requests (a multi-get's K keys in one line);
- a middleware sends each reply back to its client (a multi-get's K VALUE blocks and one END,
  merged when sharded) and each request to its server(s): a set to R replicas, a get to one
  server, a sharded multi-get as one line per server its keys hash to;
- a server sends the replies: STORED for each replica of a set, a get's VALUE blocks and END
  (sharded: each server asked its own part and END).
Requests are the clients' (a multi-get is one, as the measured throughput counts it); the mix
of sets and gets of each size is backend.analysis.request_mix's, byte counts
backend.analysis.wire_bytes'. The system bound of a role spreads a client request's bytes over
the role's hosts (hashing and round robin spread them evenly): hosts x bandwidth / bytes per
client request. Keys are memtier's (memaslap's 16 B keys are not modelled).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from statistics import fmean
from typing import Any

from backend.analysis.errors import AnalysisError, require, require_positive
from backend.analysis.request_mix import GetShape, RequestMix, design_mix
from backend.analysis.wire_bytes import (
    MessageSizes,
    get_replies_b,
    get_requests_b,
    message_sizes,
)
from backend.domain.load_generators import MEMTIER_EXPIRY_S, MEMTIER_KEY_PREFIX
from backend.domain.parameters import resolve_replication

BITS_PER_BYTE = 8
MBIT = 1e6  # iperf3's Mbit/s: 10^6 bits per second
ROLES = ("client", "middleware", "server")


@dataclass(frozen=True)
class SentBytes:
    """Bytes one role sends per set and per get the clients issue (all its hosts together),
    and how many of its hosts take part in each."""

    per_set_b: float
    per_get_b: float
    hosts_per_set: float = 1.0
    hosts_per_get: float = 1.0

    def per_request_b(self, write_fraction: float) -> float:
        return write_fraction * self.per_set_b + (1.0 - write_fraction) * self.per_get_b


def _get_b(role: str, sizes: MessageSizes, get: GetShape) -> float:
    if role == "client":
        return get_requests_b(sizes, get.keys)
    reply = get_replies_b(sizes, get.keys, ends=1.0 if role == "middleware" else get.servers_asked)
    if role == "server":
        return reply
    return reply + get_requests_b(sizes, get.keys, lines=get.servers_asked)


def sent_bytes(role: str, sizes: MessageSizes, replication: int, mix: RequestMix) -> SentBytes:
    """What `role` sends per client set and per client get, a get averaged over the mix's
    get shapes (see the module docstring)."""
    require(role in ROLES, "role", f"must be one of {', '.join(ROLES)}")
    require(replication >= 1, "replication", "must be at least 1")
    per_get = fmean(_get_b(role, sizes, g) for g in mix.gets)
    if role == "client":
        return SentBytes(sizes.set_request_b, per_get)
    if role == "middleware":
        return SentBytes(sizes.set_reply_b + replication * sizes.set_request_b, per_get)
    asked = fmean(g.servers_asked for g in mix.gets)
    return SentBytes(replication * sizes.set_reply_b, per_get, replication, asked)


def requests_per_s(bandwidth_mbit_s: float, bytes_per_request: float) -> float:
    """Requests per second a link of this bandwidth carries at this many bytes each."""
    require_positive(bandwidth_mbit_s, "bandwidth_mbit_s")
    require_positive(bytes_per_request, "bytes_per_request")
    return bandwidth_mbit_s * MBIT / (BITS_PER_BYTE * bytes_per_request)


@dataclass(frozen=True)
class RoleBound:
    """One role's network bound: per host for sets and gets alone (the reports' table), and
    of the whole system for the design's mix."""

    role: str
    hosts: int
    bandwidth_mbit_s: float
    sets_per_s_per_host: float
    gets_per_s_per_host: float
    bytes_per_request: float
    bound_per_s: float
    bandwidth_source: str = "iperf3"


def role_bound(
    role: str,
    hosts: int,
    bandwidth_mbit_s: float,
    sizes: MessageSizes,
    mix: RequestMix,
    replication: int,
) -> RoleBound:
    """The bound of `hosts` hosts of `role`, each sending at `bandwidth_mbit_s`."""
    require(hosts >= 1, "hosts", "must be at least 1")
    sent = sent_bytes(role, sizes, replication, mix)
    per_request = sent.per_request_b(mix.write_fraction)
    # Per host, what it sends per request it takes part in: a server stores one replica of a
    # set (one reply) and answers its own part of a sharded multi-get.
    return RoleBound(
        role=role,
        hosts=hosts,
        bandwidth_mbit_s=bandwidth_mbit_s,
        sets_per_s_per_host=requests_per_s(bandwidth_mbit_s, sent.per_set_b / sent.hosts_per_set),
        gets_per_s_per_host=requests_per_s(bandwidth_mbit_s, sent.per_get_b / sent.hosts_per_get),
        bytes_per_request=per_request,
        bound_per_s=hosts * requests_per_s(bandwidth_mbit_s, per_request),
    )


def design_sizes(value_size: int, key_maximum: int) -> MessageSizes:
    """A design's message sizes with memtier's keys, the longest (key_maximum's) for all."""
    key_b = len(MEMTIER_KEY_PREFIX) + len(str(key_maximum))
    return message_sizes(value_size, key_b, MEMTIER_EXPIRY_S)


def configuration_bounds(
    params: dict[str, Any],
    bandwidth_mbit_s: dict[str, float],
    testbed_hosts: dict[str, int],
    sources: dict[str, str] | None = None,
) -> list[RoleBound]:
    """Each role's bound for one configuration (its value size, key range, ratio, multi-get
    size, sharding and replication): its instances run on min(instances, testbed hosts of the role)
    machines (instance i on host i mod hosts, testbed.TestbedLayout). `sources`: where each
    role's bandwidth comes from (default iperf3)."""
    sizes = design_sizes(int(params["value_size"]), int(params["key_maximum"]))
    mix = design_mix(params)
    replication = resolve_replication(params["replication"], int(params["servers"]))
    instances = {
        "client": int(params["client_machines"]),
        "middleware": int(params["middlewares"]),
        "server": int(params["servers"]),
    }
    out = []
    for role in ROLES:
        if instances[role] == 0:
            continue
        if role not in bandwidth_mbit_s:
            raise AnalysisError("bandwidth", f"no {role} host's bandwidth was measured")
        hosts = min(instances[role], max(1, testbed_hosts.get(role, 1)))
        bound = role_bound(role, hosts, bandwidth_mbit_s[role], sizes, mix, replication)
        if sources and role in sources:
            bound = replace(bound, bandwidth_source=sources[role])
        out.append(bound)
    return out
