"""Models from measured demands: the utilization law per station, a closed network of the
testbed that was measured, its fit at every measured point, warnings and the bottleneck.

Pure (numbers in, numbers out). DOMAIN.md section 7: U = X D, so a station's service demand
is D = U / X = CPU seconds of its processes / requests completed. Stations are CPUs: each host
is an m-server station (m = its cores, D = the host's busy CPU per request), because processes
on one host share its cores (on the local testbed clients, middleware and memcached share two
cores: that CPU is the station, no process timer is). A memcached server runs one worker
thread (`-t 1`): its process is also a one-server station of its own. Think time comes from
the interactive law over the measured points, as in the timer-based model.

Two measured stations that are no CPU: the client -> middleware round trip of the run's
probe (backend.domain.round_trip) is a delay (infinite-server) station with D = the round
trip (a request crosses the link once each way), and where iperf3 measured the testbed's
bandwidths each role's link is an m-server station (m = the role's hosts, D = bits the role
sends per request / bandwidth), so its capacity m / D is the role's network bound
(backend.analysis.network_bound).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from backend.analysis.errors import require
from backend.analysis.laws import estimate_think_time
from backend.analysis.model_fit import Fit, fit
from backend.analysis.mva.bounds import bounds
from backend.analysis.mva.exact import solve_mva
from backend.analysis.mva.network import Station, StationKind

DEFAULT_TIMER_TOLERANCE = 0.5
"""Timers and demands disagree when they differ by more than this share of the demand."""


def utilization_law_demand(utilization: float, throughput_per_s: float) -> float:
    """D = U / X: seconds of service per completed request (U in busy servers, e.g. cores)."""
    require(throughput_per_s > 0, "throughput_per_s", "must be positive")
    require(utilization >= 0, "utilization", "must not be negative")
    return utilization / throughput_per_s


@dataclass(frozen=True)
class Resource:
    """A measured station: name, servers (cores, or 1 for a one-thread process), and its busy
    servers at each measured point (CPU cores in use: process or host CPU % / 100)."""

    name: str
    servers: int
    busy: tuple[float, ...]
    kind: str = "cpu"  # "cpu" of a host, "process", or "link" (a role's network bound)


def link_resource(
    role: str, hosts: int, bound_per_s: float, bandwidth_mbit_s: float, xs: Sequence[float]
) -> Resource:
    """A role's links as a station: `hosts` servers, D = hosts / bound (bits sent per request
    / bandwidth), so its capacity is the bound; busy = X D at each point (derived from the
    bandwidth, not measured: a NIC's busy time is not observable)."""
    require(bound_per_s > 0, "bound_per_s", "must be positive")
    d = hosts / bound_per_s
    return Resource(
        f"network of {role} ({hosts} x {bandwidth_mbit_s:.4g} Mbit/s)",
        hosts,
        tuple(x * d for x in xs),
        "link",
    )


@dataclass(frozen=True)
class DemandPoint:
    """One measured configuration: N clients, system throughput X, response time R (s), and
    the middleware's timer-based demand per request (s; None without a middleware)."""

    clients: int
    throughput_per_s: float
    response_time_s: float | None
    timer_demand_s: float | None = None
    middleware_cpu_cores: float | None = None  # the middlewares' CPU, summed


@dataclass(frozen=True)
class StationDemand:
    """A station's demand (pooled utilization law over the points: sum busy / sum X), the
    demand at each point, and its utilization per server at each point."""

    name: str
    servers: int
    demand_s: float
    demand_by_point_s: tuple[float, ...]
    utilization_by_point: tuple[float, ...]


@dataclass(frozen=True)
class FitPoint:
    """Model against measurement at one measured N (errors: 100 (model - measured) / measured)."""

    clients: int
    measured_throughput_per_s: float
    model_throughput_per_s: float
    bound_throughput_per_s: float
    throughput_error_pct: float
    measured_response_time_s: float | None
    model_response_time_s: float
    response_time_error_pct: float | None
    bound_response_time_s: float  # the asymptotic lower bound max(D, N D_max - Z)
    throughput_fit: Fit
    response_time_fit: Fit | None  # None when no response time was measured


@dataclass(frozen=True)
class Bottleneck:
    """The resource with the highest utilization at the highest measured load."""

    resource: str
    utilization: float
    clients: int
    servers: int
    others: tuple[tuple[str, float], ...] = ()  # the rest, by utilization


@dataclass(frozen=True)
class DemandModel:
    """The network's stations, the processes' demands (not stations: their CPU is part of
    their host's), the fit, the bottleneck and the warnings."""

    stations: tuple[StationDemand, ...]
    processes: tuple[StationDemand, ...]
    think_time_s: float
    points: tuple[FitPoint, ...]
    bottleneck: Bottleneck | None
    warnings: tuple[str, ...] = field(default_factory=tuple)
    timer_demand_s: float | None = None  # the middleware timers' demand (pooled)
    cpu_demand_s: float | None = None  # the middleware processes' CPU demand (pooled)
    network_delay_s: float | None = None  # the delay station: the measured round trip


def _error(model: float, measured: float | None) -> float | None:
    if measured is None or measured == 0:
        return None
    return 100.0 * (model - measured) / measured


def station_demands(
    points: Sequence[DemandPoint], resources: Sequence[Resource]
) -> list[StationDemand]:
    """The utilization law for every resource: per point and pooled over the points."""
    xs = [p.throughput_per_s for p in points]
    out = []
    for r in resources:
        require(len(r.busy) == len(points), "resources", f"{r.name}: one value per point")
        per_point = tuple(utilization_law_demand(u, x) for u, x in zip(r.busy, xs, strict=True))
        pooled = sum(r.busy) / sum(xs)
        out.append(
            StationDemand(
                r.name, r.servers, pooled, per_point, tuple(u / r.servers for u in r.busy)
            )
        )
    return out


def demand_model(
    points: Sequence[DemandPoint],
    stations: Sequence[Resource],
    processes: Sequence[Resource] = (),
    timer_tolerance: float = DEFAULT_TIMER_TOLERANCE,
    network_delay_s: float | None = None,
) -> DemandModel:
    """The closed network of the measured stations, solved by exact MVA for 1..max N, its
    asymptotic bound, the fit at each measured point, warnings and the bottleneck.

    stations: each host's CPU (servers = cores). processes: the CPU of each process, with the
    servers it can use (1 for a one-thread memcached); they are not stations of the network
    (their CPU is already their host's) but may be the bottleneck.
    """
    require(len(points) > 0, "points", "no measured configuration")
    require(all(p.throughput_per_s > 0 for p in points), "throughput_per_s", "must be positive")
    require(len(stations) > 0, "resources", "no CPU measured: run with the monitor")
    require(0 < timer_tolerance, "timer_tolerance", "must be positive")
    require(
        network_delay_s is None or network_delay_s >= 0, "network_delay_s", "must not be negative"
    )
    order = sorted(range(len(points)), key=lambda i: points[i].clients)
    points = [points[i] for i in order]

    def ordered(rs: Sequence[Resource]) -> list[Resource]:
        return [Resource(r.name, r.servers, tuple(r.busy[i] for i in order), r.kind) for r in rs]

    demands = station_demands(points, ordered(stations))
    per_process = station_demands(points, ordered(processes))
    think = estimate_think_time(
        [p.clients for p in points],
        [p.throughput_per_s for p in points],
        [p.response_time_s or 0.0 for p in points],
    )
    network = tuple(
        Station(s.name, StationKind.MULTI if s.servers > 1 else StationKind.QUEUE, s.demand_s,
                servers=s.servers)
        for s in demands
        if s.demand_s > 0
    )  # fmt: skip
    require(len(network) > 0, "resources", "no CPU time measured at any station")
    if network_delay_s:
        network = (*network, Station("network round trip", StationKind.DELAY, network_delay_s))
    top = max(p.clients for p in points)
    solved = solve_mva(network, top, think)
    bound = bounds(network, top, think)
    points_fit = []
    for p in points:
        i = p.clients - 1
        x_model = float(solved.throughput_per_s[i])
        r_model = float(solved.response_time_s[i])
        x_bound = float(bound.aba_throughput_upper[i])
        r_bound = float(bound.aba_response_lower_s[i])
        r = p.response_time_s
        where = f"N = {p.clients}"
        points_fit.append(
            FitPoint(
                p.clients,
                p.throughput_per_s,
                x_model,
                x_bound,
                _error(x_model, p.throughput_per_s) or 0.0,
                r,
                r_model,
                _error(r_model, r),
                r_bound,
                fit("throughput", p.throughput_per_s, x_model, x_bound, "upper", where),
                None
                if r is None or r <= 0
                else fit("response time", r, r_model, r_bound, "lower", where),
            )
        )
    warnings = _warnings(points_fit, [*demands, *per_process], points)
    low = points_fit[0]  # the lowest load: the least queueing
    total = sum(s.demand_s for s in demands) + (network_delay_s or 0.0)
    if low.measured_response_time_s is not None and low.measured_response_time_s > 2 * total:
        what = "CPU demands" + (" and round trip" if network_delay_s else "")
        warnings.append(
            f"N = {low.clients}: measured response time {low.measured_response_time_s * 1e6:.0f} "
            f"us against {total * 1e6:.0f} us of {what}: the rest (waiting, time no "
            "measurement covers) is no station of this model, so it overestimates throughput"
        )
    timer, cpu = _timer_pair(points)
    if (
        timer is not None
        and cpu is not None
        and cpu > 0
        and abs(timer - cpu) > timer_tolerance * cpu
    ):
        warnings.append(
            f"the middleware's timers give {timer * 1e6:.1f} us per request, its CPU "
            f"{cpu * 1e6:.1f} us: they differ by {100 * abs(timer - cpu) / cpu:.0f} % "
            f"(more than {100 * timer_tolerance:.0f} %); a worker's time includes waiting "
            "for memcached, which is no demand on any CPU"
        )
    return DemandModel(
        tuple(demands),
        tuple(per_process),
        think,
        tuple(points_fit),
        bottleneck(points, [*demands, *per_process]),
        tuple(warnings),
        timer,
        cpu,
        network_delay_s or None,
    )


def _timer_pair(points: Sequence[DemandPoint]) -> tuple[float | None, float | None]:
    """Pooled timer demand and pooled middleware CPU demand (None where not measured)."""
    timed = [p for p in points if p.timer_demand_s is not None]
    timer = None
    if timed:
        total_x = sum(p.throughput_per_s for p in timed)
        timer = sum((p.timer_demand_s or 0.0) * p.throughput_per_s for p in timed) / total_x
    cpu_points = [p for p in points if p.middleware_cpu_cores is not None]
    cpu = None
    if cpu_points:
        cores = sum(p.middleware_cpu_cores or 0.0 for p in cpu_points)
        cpu = cores / sum(p.throughput_per_s for p in cpu_points)
    return timer, cpu


def _warnings(
    fit: Sequence[FitPoint], stations: Sequence[StationDemand], points: Sequence[DemandPoint]
) -> list[str]:
    out = []
    for f in fit:
        if f.throughput_fit.verdict == "beyond_bound":
            out.append(
                f"{f.throughput_fit.message}: the demands pooled over the points are larger "
                "than this point's (CPU per request falls with load), or a resource is "
                "missing from the model"
            )
    for s in stations:
        for p, u in zip(points, s.utilization_by_point, strict=True):
            if u > 1.0:
                out.append(
                    f"N = {p.clients}: {s.name} utilization {u:.2f} > 1 (more busy time than "
                    f"{s.servers} server{'s' if s.servers > 1 else ''} can give: check the "
                    "window and the core count)"
                )
    return out


def bottleneck(
    points: Sequence[DemandPoint], stations: Sequence[StationDemand]
) -> Bottleneck | None:
    """At the highest measured load, the station with the highest utilization per server."""
    if not stations:
        return None
    i = int(np.argmax([p.clients for p in points]))
    ranked = sorted(stations, key=lambda s: s.utilization_by_point[i], reverse=True)
    top = ranked[0]
    return Bottleneck(
        top.name,
        top.utilization_by_point[i],
        points[i].clients,
        top.servers,
        tuple((s.name, s.utilization_by_point[i]) for s in ranked[1:]),
    )
