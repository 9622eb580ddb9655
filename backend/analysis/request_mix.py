"""The requests a configuration's clients send: the share of sets and the shape of each get
(keys, and how many servers a sharded middleware asks), in requests as the clients' throughput
counts them (a multi-get is one request; keys per second are requests x keys).

memtier with `--ratio=S:G --multi-key-get=K` repeats a cycle of S sets and G get keys, the keys
in multi-gets of K and one of the rest (G mod K): ratio 1:9 with K = 6 is a set, a 6-key and a
3-key get (client.cpp, create_mget_request). Without --multi-key-get (K = 1) the cycle's gets
are G plain gets.

A sharded middleware asks each server its keys hash to (mcscope always starts it with `-r`, which
routes by key hash: server_pool.cpp, plan_multiget): K keys spread uniformly over S servers ask
S (1 - (1 - 1/S)^K) servers on average. A non-sharded multi-get asks one server.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from backend.analysis.errors import require
from backend.analysis.experiment import set_get_counts


@dataclass(frozen=True)
class GetShape:
    """One get request: its keys and the servers it is sent to (an expected count when sharded)."""

    keys: int
    servers_asked: float = 1.0


@dataclass(frozen=True)
class RequestMix:
    """The requests clients send: the share of sets, and the get requests of one cycle (each
    equally often). Write-only mixes keep the design's get as `gets` for "if all were gets"."""

    write_fraction: float
    gets: tuple[GetShape, ...]

    def __post_init__(self) -> None:
        require(0.0 <= self.write_fraction <= 1.0, "write_fraction", "must lie in [0, 1]")
        require(len(self.gets) > 0, "gets", "needs at least one get shape")


def single_key_gets(write_fraction: float) -> RequestMix:
    """Sets and plain one-key gets."""
    return RequestMix(write_fraction, (GetShape(1),))


def servers_asked(keys: int, servers: int, sharded: bool) -> float:
    """Expected servers one get of `keys` keys is sent to (see the module docstring)."""
    require(keys >= 1, "multiget_size", "must be at least 1")
    require(servers >= 1, "servers", "must be at least 1")
    if not sharded or keys == 1:
        return 1.0
    return servers * (1.0 - (1.0 - 1.0 / servers) ** keys)


def cycle_get_keys(get_keys: int, multiget_size: int) -> tuple[int, ...]:
    """Keys of each get request in one cycle of `get_keys` get keys (memtier's rule)."""
    require(multiget_size >= 1, "multiget_size", "must be at least 1")
    full, rest = divmod(get_keys, multiget_size)
    return (multiget_size,) * full + ((rest,) if rest else ())


def design_mix(params: dict[str, Any]) -> RequestMix:
    """A configuration's mix from its ratio, multi-get size, sharding and servers."""
    sets, get_keys = set_get_counts(str(params["ratio"]))
    k = int(params.get("multiget_size", 1))
    servers = int(params["servers"])
    sharded = bool(params.get("sharded", False))
    keys = cycle_get_keys(get_keys, k) or (k,)
    gets = tuple(GetShape(n, servers_asked(n, servers, sharded)) for n in keys)
    requests = sets + (len(keys) if get_keys else 0)
    return RequestMix(sets / requests, gets)
