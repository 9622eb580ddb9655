"""The network bound of each role: how many requests a host's measured bandwidth can carry.

A host's link limits what it sends (iperf measures each role's upload, DOMAIN.md section 7),
so each role is bounded by bandwidth / bytes it sends per request:
- a client sends set requests and get requests;
- a middleware sends each reply back to its client and each request to its server(s): a set
  to R replicas, a get to one server;
- a server sends the replies (a set's to each of the R replicas' middleware);
The system bound of a role spreads a client request's bytes over the role's hosts (hashing
and round robin spread them evenly): hosts x bandwidth / bytes per client request.
Multi-gets are not modelled (one key per get).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from backend.analysis.errors import AnalysisError, require, require_positive
from backend.domain.load_generators import MEMTIER_EXPIRY_S, MEMTIER_KEY_PREFIX

BITS_PER_BYTE = 8
MBIT = 1e6  # iperf3's Mbit/s: 10^6 bits per second
SET_REPLY = b"STORED\r\n"
GET_END = b"END\r\n"
ROLES = ("client", "middleware", "server")


@dataclass(frozen=True)
class MessageSizes:
    """Bytes on the wire of each memcached text-protocol message (TCP payload)."""

    set_request_b: int
    set_reply_b: int
    get_request_b: int
    get_reply_b: int


def message_sizes(value_size: int, key_b: int, expiry_s: int) -> MessageSizes:
    """The text protocol's sizes for one key of `key_b` bytes and a value of `value_size`:
    `set k 0 exp n\\r\\n<value>\\r\\n`, `STORED\\r\\n`, `get k\\r\\n` and
    `VALUE k 0 n\\r\\n<value>\\r\\nEND\\r\\n`."""
    require_positive(value_size, "value_size")
    require_positive(key_b, "key_b")
    n = len(str(value_size))
    return MessageSizes(
        set_request_b=len(f"set  0 {expiry_s} \r\n") + key_b + n + value_size + 2,
        set_reply_b=len(SET_REPLY),
        get_request_b=len("get \r\n") + key_b,
        get_reply_b=len("VALUE  0 \r\n") + key_b + n + value_size + 2 + len(GET_END),
    )


@dataclass(frozen=True)
class SentBytes:
    """Bytes one role sends per set and per get the clients issue (all its hosts together)."""

    per_set_b: float
    per_get_b: float

    def per_request_b(self, write_fraction: float) -> float:
        return write_fraction * self.per_set_b + (1.0 - write_fraction) * self.per_get_b


def sent_bytes(role: str, sizes: MessageSizes, replication: int) -> SentBytes:
    """What `role` sends per client set and per client get (see the module docstring)."""
    require(role in ROLES, "role", f"must be one of {', '.join(ROLES)}")
    require(replication >= 1, "replication", "must be at least 1")
    if role == "client":
        return SentBytes(sizes.set_request_b, sizes.get_request_b)
    if role == "middleware":
        return SentBytes(
            sizes.set_reply_b + replication * sizes.set_request_b,
            sizes.get_reply_b + sizes.get_request_b,
        )
    return SentBytes(replication * sizes.set_reply_b, sizes.get_reply_b)


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


def role_bound(
    role: str,
    hosts: int,
    bandwidth_mbit_s: float,
    sizes: MessageSizes,
    write_fraction: float,
    replication: int,
) -> RoleBound:
    """The bound of `hosts` hosts of `role`, each sending at `bandwidth_mbit_s`."""
    require(hosts >= 1, "hosts", "must be at least 1")
    require(0.0 <= write_fraction <= 1.0, "write_fraction", "must lie in [0, 1]")
    sent = sent_bytes(role, sizes, replication)
    per_request = sent.per_request_b(write_fraction)
    # Per host, a server's set is the one replica it stores (one reply); the system's R
    # replies of a set are spread over the servers like its gets.
    per_set_host = sizes.set_reply_b if role == "server" else sent.per_set_b
    return RoleBound(
        role=role,
        hosts=hosts,
        bandwidth_mbit_s=bandwidth_mbit_s,
        sets_per_s_per_host=requests_per_s(bandwidth_mbit_s, per_set_host),
        gets_per_s_per_host=requests_per_s(bandwidth_mbit_s, sent.per_get_b),
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
    replication: int,
    write_fraction: float,
) -> list[RoleBound]:
    """Each role's bound for one configuration: its instances run on min(instances, testbed
    hosts of the role) machines (instance i on host i mod hosts, testbed.TestbedLayout)."""
    sizes = design_sizes(int(params["value_size"]), int(params["key_maximum"]))
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
        out.append(
            role_bound(role, hosts, bandwidth_mbit_s[role], sizes, write_fraction, replication)
        )
    return out
