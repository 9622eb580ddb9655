"""DOMAIN.md's MVA network filled from measurements: per group of configurations differing only
in clients, the measured points and the network's inputs estimated at the group's lowest load,
each with its source (the conventions are backend.modelfit.fit's; pure: measured rows in)."""

from __future__ import annotations

from dataclasses import dataclass
from statistics import median
from typing import Any

from backend.analysis.errors import AnalysisError, require
from backend.analysis.laws import estimate_think_time
from backend.analysis.network_builder import SystemConfig
from backend.domain.parameters import CLIENT_COUNT_PARAMETERS
from backend.modelfit.fit import (
    MeasuredConfig,
    MeasuredUtilization,
    arrival,
    group_key,
    measured_utilization,
    stat_mean,
    stat_std,
    us_to_s,
    worker_service_s,
)


@dataclass(frozen=True)
class Estimate:
    """One model input with where it came from."""

    parameter: str
    value: float
    unit: str
    source: str


@dataclass(frozen=True)
class MeasuredPoint:
    """The clients' measurement at one client count (error bars: std over repetitions)."""

    configuration_id: int
    clients: int
    throughput_per_s: float
    throughput_std_per_s: float | None
    response_time_s: float | None
    response_time_std_s: float | None


@dataclass(frozen=True)
class NetworkGroup:
    """A group's measured curve and the network's inputs estimated from it."""

    group: dict[str, Any]
    system: SystemConfig
    estimates: tuple[Estimate, ...]
    points: tuple[MeasuredPoint, ...]
    utilization: tuple[MeasuredUtilization, ...] = ()


def network_groups(
    configs: list[MeasuredConfig],
    replication_of: Any,
    write_fraction_of: Any,
    server_utilization: float | None = None,
    round_trips_us: dict[int, float] | None = None,
) -> list[NetworkGroup]:
    """Per group, DOMAIN.md's network with inputs from the data (see `estimate_inputs`).

    `replication_of(params)` and `write_fraction_of(params)` read the grid's replication
    factor and SET share (domain rules stay in backend.domain).
    """
    groups: dict[tuple[tuple[str, str], ...], list[MeasuredConfig]] = {}
    for c in configs:
        if "throughput_per_s" in c.client:
            groups.setdefault(group_key(c.values), []).append(c)
    require(len(groups) > 0, "experiment", "no succeeded runs with client measurements")
    out = []
    for members in groups.values():
        members.sort(key=lambda c: c.clients)
        first = members[0]
        require(
            int(first.params.get("middlewares", 0)) >= 1,
            "middlewares",
            "the network model needs a middleware",
        )
        system, estimates = estimate_inputs(
            members,
            replication=int(replication_of(first.params)),
            write_fraction=float(write_fraction_of(first.params)),
            server_utilization=server_utilization,
            round_trip_us=group_round_trip_us(members, round_trips_us),
        )
        points = tuple(
            MeasuredPoint(
                c.configuration_id,
                c.clients,
                c.client["throughput_per_s"].mean,
                c.client["throughput_per_s"].std,
                us_to_s(stat_mean(c.client, "response_time_us")),
                us_to_s(stat_std(c.client, "response_time_us")),
            )
            for c in members
        )
        group = {k: v for k, v in first.values.items() if k not in CLIENT_COUNT_PARAMETERS}
        measured = tuple(u for c in members if (u := measured_utilization(c)) is not None)
        out.append(NetworkGroup(group, system, estimates, points, measured))
    return out


def group_round_trip_us(
    members: list[MeasuredConfig], round_trips_us: dict[int, float] | None
) -> float | None:
    """The group's measured client -> middleware round trip: the median of its members'."""
    values = sorted(
        (round_trips_us or {})[c.configuration_id]
        for c in members
        if c.configuration_id in (round_trips_us or {})
    )
    return float(median(values)) if values else None


def network_delay(
    round_trip_us: float | None, r_client_us: float | None, r_mw_us: float, at: str
) -> tuple[float, str]:
    """Each network delay station's time (s) and its source: half the measured round trip
    (a request crosses the client -> middleware link once each way, DOMAIN.md section 7),
    else half the client time the middleware's timers do not see (which holds the load
    generator's own time too, so it overstates the network)."""
    if round_trip_us is not None:
        return (
            round_trip_us / 2.0 / 1e6,
            f"measured client -> middleware TCP round trip / 2 ({round_trip_us:.4g} us, "
            "median over the group's runs)",
        )
    if r_client_us is None:
        return 0.0, "not measured: 0"
    return (
        max(0.0, (r_client_us - r_mw_us) / 2.0) / 1e6,
        f"(client response - middleware response) / 2 {at}; no round trip measured",
    )


def estimate_inputs(
    members: list[MeasuredConfig],
    replication: int,
    write_fraction: float,
    server_utilization: float | None = None,
    round_trip_us: float | None = None,
) -> tuple[SystemConfig, tuple[Estimate, ...]]:
    """The network's service times from the group's lowest-load measurement with middleware
    times; the memcached service time from the utilization law when a utilization is given.
    """
    with_mw = [c for c in members if worker_service_s(c) is not None]
    if not with_mw:
        raise AnalysisError(
            "experiment", "no configuration of the group has middleware response and queue times"
        )
    low = with_mw[0]
    at = f"at N = {low.clients} (lowest load of the group)"
    params = low.params
    servers, middlewares, workers = (int(params[k]) for k in ("servers", "middlewares", "workers"))
    r_mw = low.mw("response_time_us") or 0.0
    w_q = low.mw("queue_time_us") or 0.0
    server_us = low.mw("server_time_us")
    processing = low.mw("processing_time_us")
    if processing is None and server_us is not None:
        processing = r_mw - w_q - server_us
    # A service time is never negative: a measured mean below 0 (the parts are timed apart,
    # so noise can make total - queue - server < 0) is taken as 0, not answered with a 500.
    processing = max(0.0, processing) if processing is not None else None
    r_client = stat_mean(low.client, "response_time_us")
    delay, delay_source = network_delay(round_trip_us, r_client, r_mw, at)
    worker = (r_mw - w_q) / 1e6
    estimates = [
        Estimate("workers", workers, "threads per middleware", "the configuration"),
        Estimate("middlewares", middlewares, "middlewares", "the configuration"),
        Estimate("servers", servers, "servers", "the configuration"),
        Estimate(
            "network_delay_s",
            delay,
            "s",
            delay_source,
        ),
        Estimate(
            "net_thread_service_s",
            (processing or 0.0) / 1e6,
            "s",
            f"middleware processing time (total - queue - server) {at}; an upper bound of the "
            "parse time"
            if processing is not None
            else "not measured (no server time): 0",
        ),
        Estimate("worker_service_s", worker, "s", f"middleware response - queue time {at}"),
    ]
    visits = ((1.0 - write_fraction) + write_fraction * replication) / servers
    top = members[-1]
    x_top = arrival(top)[0]
    if server_utilization is not None and x_top is not None:
        require(0 < server_utilization <= 1, "server_utilization", "must lie in (0, 1]")
        server_s = server_utilization / (x_top * visits)
        estimates.append(
            Estimate(
                "server_service_s",
                server_s,
                "s",
                f"utilization law S = U / (X V): U = {server_utilization:g} given, "
                f"X = {x_top:.6g}/s at N = {top.clients}, V = {visits:.4g} visits per server",
            )
        )
    elif server_us is not None and server_us > 0:
        server_s = server_us / 1e6
        estimates.append(
            Estimate(
                "server_service_s",
                server_s,
                "s",
                f"middleware server time {at}; an upper bound (includes the network round "
                "trip to memcached): give a measured server utilization to use the "
                "utilization law instead",
            )
        )
    else:
        raise AnalysisError("experiment", "no server time measured and no utilization given")
    think = estimate_think_time(
        [c.clients for c in members],
        [c.client["throughput_per_s"].mean for c in members],
        [(stat_mean(c.client, "response_time_us") or 0.0) / 1e6 for c in members],
    )
    estimates.append(
        Estimate(
            "think_time_s",
            think,
            "s",
            "interactive law Z = N / X - R, least squares over the group, clipped at 0",
        )
    )
    estimates.append(
        Estimate("write_fraction", write_fraction, "", "the configuration's SET:GET ratio")
    )
    estimates.append(
        Estimate("replication", replication, "servers", "the configuration's replication")
    )
    system = SystemConfig(
        servers=servers,
        middlewares=middlewares,
        workers=workers,
        network_delay_s=delay,
        net_thread_service_s=(processing or 0.0) / 1e6,
        worker_service_s=worker,
        server_service_s=server_s,
        write_fraction=write_fraction,
        replication=replication,
        think_time_s=think,
    )
    return system, tuple(estimates)
