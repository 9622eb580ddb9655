"""One bottleneck statement per group of configurations (those differing only in clients),
from every model that names one, each with the basis it names it on.

The models look at different things, so they may name different resources without any of
them being wrong:
- the MVA network's stations are the middleware's timed parts and the memcached servers, with
  service demands fitted from the middleware's timers at the group's lowest load: its
  bottleneck is the station with the largest demand per server (a CPU is no station of it);
- the demand model's stations are the CPUs and links the run used, with demands measured by
  the monitor (utilization law): its bottleneck is the busiest at the highest load (a
  thread waiting for memcached is busy to the MVA, idle to a CPU);
- the network bound names the role whose links carry the fewest requests per second.
When they name one component (a middleware, a memcached server, a host, a role's network),
the statement names it once; else it lists each model's answer with its basis and says why.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from sqlalchemy.orm import Session

from backend.analysis.demands import DEFAULT_TIMER_TOLERANCE
from backend.analysis.errors import AnalysisError
from backend.analysis.mva.bounds import bounds
from backend.analysis.network_bound import configuration_bounds
from backend.analysis.network_builder import build_network
from backend.crud.network import experiment_testbed, testbed_bandwidths
from backend.domain.parameters import CLIENT_COUNT_PARAMETERS
from backend.modelfit.demands import DemandGroup, demand_groups
from backend.modelfit.fit import MeasuredConfig
from backend.modelfit.network import NetworkGroup
from backend.models import Experiment

WHY_THEY_DIFFER = (
    "they differ because they look at different resources: the MVA's stations are the "
    "middleware's timed parts and memcached (a CPU is none of them, and a thread waiting for "
    "memcached counts as busy), the demand model's are the CPUs and links the run used"
)


@dataclass(frozen=True)
class ModelBottleneck:
    """One model's bottleneck of a group and what it rests on."""

    model: str  # "MVA", "demand model", "network bound"
    resource: str  # as the model names it
    component: str  # the part of the system it belongs to (compared across models)
    basis: str  # what the model's numbers come from
    detail: str  # the numbers that make it the bottleneck


@dataclass(frozen=True)
class GroupBottleneck:
    """The statement of one group and each model's answer."""

    group: dict[str, Any]
    statement: str
    agree: bool
    models: tuple[ModelBottleneck, ...]


def component(resource: str) -> str:
    """The system part a model's resource belongs to, in one vocabulary for every model:
    `net_thread_0`, `workers_0` and `middleware middleware:0` are all "middleware 0"."""
    patterns = (
        (r"^(?:net_thread|workers)_(\d+)$", "middleware {0}"),
        (r"^memcached_(\d+)$", "memcached server {0}"),
        (r"^memcached server:(\d+)$", "memcached server {0}"),
        (r"^middleware middleware:(\d+)$", "middleware {0}"),
        (r"^load generator client:(\d+)$", "load generator {0}"),
        (r"^CPU of (.+)$", "host {0}"),
        (r"^network of (\w+)", "network of the {0}s"),
        (r"^network_(?:in|out)$", "client network"),
    )
    for pattern, name in patterns:
        m = re.match(pattern, resource)
        if m:
            return name.format(*m.groups())
    return resource


def mva_bottleneck(group: NetworkGroup) -> ModelBottleneck:
    """The MVA network's station with the largest demand per server (its inputs fitted)."""
    system = group.system
    network = build_network(system)
    b = bounds(network, 1, system.think_time_s)
    lowest = min(p.clients for p in group.points)
    return ModelBottleneck(
        "MVA",
        b.bottleneck,
        component(b.bottleneck),
        f"fitted service demands (middleware timers at N = {lowest})",
        f"largest demand per server, {b.max_demand_s * 1e6:.1f} µs: at most "
        f"{1.0 / b.max_demand_s:,.0f} ops/s",
    )


def demand_bottleneck(group: DemandGroup) -> ModelBottleneck | None:
    """The demand model's busiest station or process at the group's highest load."""
    b = group.model.bottleneck
    if b is None:
        return None
    return ModelBottleneck(
        "demand model",
        b.resource,
        component(b.resource),
        "measured CPU (utilization law)",
        f"utilization {b.utilization:.2f} of {b.servers} server{'s' if b.servers > 1 else ''} "
        f"at N = {b.clients}",
    )


def network_bottleneck(
    params: dict[str, Any], bandwidth: dict[str, float], hosts: dict[str, int], measured: float
) -> ModelBottleneck | None:
    """The role whose measured bandwidth bounds the group lowest (None: none measured)."""
    if not bandwidth:
        return None
    try:
        roles = configuration_bounds(params, bandwidth, hosts)
    except AnalysisError:
        return None
    limiting = min(roles, key=lambda r: r.bound_per_s)
    return ModelBottleneck(
        "network bound",
        f"network of {limiting.role}",
        component(f"network of {limiting.role}"),
        "link bandwidth (its cap, else iperf3) / bytes sent per request",
        f"bound {limiting.bound_per_s:,.0f} ops/s, measured at "
        f"{100 * measured / limiting.bound_per_s:.0f} % of it",
    )


def statement(models: list[ModelBottleneck]) -> tuple[str, bool]:
    """The group's sentence and whether the models agree."""
    if not models:
        return "no model names a bottleneck", True
    parts = {m.component for m in models}
    names = " and ".join(m.model for m in models)
    if len(parts) == 1:
        (part,) = parts
        if len(models) == 1:
            return f"{part} ({models[0].model}: {models[0].resource} from {models[0].basis})", True
        return f"{part} ({names} agree)", True
    each = "; ".join(f"{m.model}: {m.resource} from {m.basis}" for m in models)
    return f"the models differ ({each}): {WHY_THEY_DIFFER}", False


def _key(group: dict[str, Any]) -> str:
    return repr(sorted((k, repr(v)) for k, v in group.items()))


def group_bottlenecks(
    *,
    session: Session,
    experiment: Experiment,
    configs: list[MeasuredConfig],
    networks: list[NetworkGroup],
) -> list[GroupBottleneck]:
    """Per group of the MVA's inputs (`networks`, from `configs`), the statement over the
    MVA, the demand model (groups with monitor data) and the network bound (testbeds with
    measured bandwidths)."""
    try:
        demands = {
            _key(g.group): g
            for g in demand_groups(
                session=session, experiment=experiment, timer_tolerance=DEFAULT_TIMER_TOLERANCE
            )
        }
    except AnalysisError:  # no monitor data: the other models still answer
        demands = {}
    testbed = experiment_testbed(session=session, experiment=experiment)
    bandwidth = testbed_bandwidths(testbed).mbit_s
    hosts = {r: sum(1 for h in testbed.hosts if h.role.value == r) for r in bandwidth if testbed}
    params = {
        _key({k: v for k, v in c.values.items() if k not in CLIENT_COUNT_PARAMETERS}): c.params
        for c in configs
    }
    out = []
    for g in networks:
        top = max(g.points, key=lambda p: p.clients)
        demand = demands.get(_key(g.group))
        found = [
            mva_bottleneck(g),
            demand_bottleneck(demand) if demand is not None else None,
            network_bottleneck(params[_key(g.group)], bandwidth, hosts, top.throughput_per_s),
        ]
        models = [m for m in found if m is not None]
        text, agree = statement(models)
        out.append(GroupBottleneck(g.group, text, agree, tuple(models)))
    return out
