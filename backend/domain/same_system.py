"""Configurations that are the same system: the one home of which parameter values cannot
matter in a configuration. Two configurations whose `system` is equal run the same processes
with the same arguments and the same requests, so a difference measured between them is noise.

- No middleware: clients talk to memcached directly; worker threads, the queue, sharding and
  replication are the middleware's.
- A write-free mix (ratio 0:G) writes nothing to replicate; one server holds one copy.
- Sharding splits multi-gets (middleware-cpp/src/worker.cpp): it cannot matter without
  gets, with plain one-key gets, or with one server to send them to.
- A read-free mix (ratio S:0) sends no gets: the multi-get size does not matter.
- Replication words resolve against the servers ("one" and "all" are 1 replica on 1 server;
  resolve_replication): the replica count is what runs.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from backend.domain.labels import format_level
from backend.domain.parameters import ratio_counts, resolve_replication

_NO_MIDDLEWARE = "without a middleware (middlewares = 0) there is no {p}"
_MIDDLEWARE_PARTS = {
    "workers": "worker pool",
    "queue_capacity": "work queue",
    "sharded": "sharding",
    "replication": "replication",
}


def inert(params: dict[str, Any]) -> dict[str, str]:
    """Parameter -> why its value cannot matter in this configuration (effective parameters)."""
    out: dict[str, str] = {}
    if int(params["middlewares"]) == 0:
        out.update({p: _NO_MIDDLEWARE.format(p=part) for p, part in _MIDDLEWARE_PARTS.items()})
    sets, gets = ratio_counts(str(params["ratio"]))
    servers = int(params["servers"])
    if sets == 0:
        out.setdefault("replication", f"a write-free mix (ratio {params['ratio']}) writes nothing")
    if servers == 1:
        out.setdefault("replication", "with 1 server every set is written to that one server")
        out.setdefault("sharded", "with 1 server a multi-get has one server to go to")
    if gets == 0:
        read_free = f"a read-free mix (ratio {params['ratio']}) sends no gets"
        out.setdefault("multiget_size", read_free)
        out.setdefault("sharded", read_free)
    if int(params["multiget_size"]) == 1:
        out.setdefault("sharded", "plain one-key gets (multiget_size = 1) are never split")
    return out


def system(params: dict[str, Any]) -> dict[str, Any]:
    """What a configuration runs: its parameters without the inert ones, replication as the
    replica count."""
    dead = inert(params)
    out = {k: v for k, v in params.items() if k not in dead}
    if "replication" in out:
        out["replication"] = resolve_replication(out["replication"], int(params["servers"]))
    return out


def why_same(name: str, a: Any, b: Any, params: dict[str, Any]) -> str:
    """Why `name` = a and `name` = b give the same system in the configuration `params`
    (either one's; the caller has checked that their systems are equal)."""
    reason = inert(params).get(name)
    if reason is not None:
        return reason
    if name == "replication":
        servers = int(params["servers"])
        n = resolve_replication(a, servers)
        return (
            f"with {servers} servers replication {format_level(a)} and {format_level(b)} "
            f"both write {n} cop{'y' if n == 1 else 'ies'}"
        )
    return f"{name} {format_level(a)} and {format_level(b)} run the same system"


@dataclass(frozen=True)
class SameSystem:
    """Grid points (their positions in the grid) that are one system, and why."""

    positions: tuple[int, ...]
    reasons: tuple[str, ...]


def duplicates(points: list[dict[str, Any]], params: list[dict[str, Any]]) -> list[SameSystem]:
    """Groups of two or more grid points (factor values, and their effective parameters)
    that run the same system, with a reason for each factor in which they differ."""
    groups: dict[str, list[int]] = {}
    for i, p in enumerate(params):
        groups.setdefault(repr(sorted(system(p).items())), []).append(i)
    out = []
    for members in groups.values():
        if len(members) < 2:
            continue
        first = points[members[0]]
        reasons: list[str] = []
        for name in first:
            values = [points[i][name] for i in members]
            other = next((v for v in values if v != first[name]), None)
            if other is None:
                continue
            why = why_same(name, first[name], other, params[members[0]])
            if why not in reasons:
                reasons.append(why)
        out.append(SameSystem(tuple(members), tuple(reasons)))
    return out
