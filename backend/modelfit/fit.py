"""Queueing models filled from an experiment's own measurements (pure: measured rows in).

Conventions (DOMAIN.md sections 1 and 4), one home for all of them:
- the middleware layer is m = workers x middlewares servers;
- arrival rate lambda = the throughput the middlewares measured (a closed system in steady
  state: what arrives is what completes), else the clients' throughput;
- a worker's service time S = middleware response time - queue time (the time a worker holds
  a request: server time and processing); the per-server service rate is mu = 1 / S. M/M/m
  uses m servers of rate mu; M/M/1 treats the layer as one server of rate m mu. With
  `service_rate="max_throughput"` the layer's rate is instead the largest throughput measured
  in the configuration's group (M/M/1 mu = X_max, M/M/m mu = X_max / m);
- predicted against measured: E[nq] against the middlewares' mean queue length (summed over
  middlewares), E[w] against the queue time, E[r] against the middleware response time;
  relative error 100 (model - measured) / measured.
The MVA network's inputs are estimated per group (configurations differing only in client
counts) at the group's lowest load, where queueing distorts the times least; every estimate
carries the formula and the configuration it came from.
Measured utilization (utilization law, per configuration): the middleware reports how long a
worker holds each request (response - queue time); summed per second that is the worker
pool's busy time, X_mw (R - W) busy workers, so U = X_mw (R - W) / m per worker, and the
demand per client request D = m U / X with X the system throughput (the clients').
"""

from __future__ import annotations

from dataclasses import dataclass, field
from statistics import median
from typing import Any, Literal

from backend.analysis.errors import AnalysisError, require
from backend.analysis.laws import estimate_think_time
from backend.analysis.mm1 import mm1
from backend.analysis.mmm import mmm
from backend.analysis.network_builder import SystemConfig
from backend.domain.parameters import CLIENT_COUNT_PARAMETERS

ServiceRateSource = Literal["worker_time", "max_throughput"]


@dataclass(frozen=True)
class Stat:
    """Mean and standard deviation over repetitions (std None with one repetition)."""

    mean: float
    std: float | None
    n: int


@dataclass(frozen=True)
class MeasuredConfig:
    """One configuration's measurements; metric names as in backend.analysis.experiment."""

    configuration_id: int
    index: int
    values: dict[str, Any]
    params: dict[str, Any]  # effective parameters (defaults and fixed values filled in)
    clients: int
    client: dict[str, Stat] = field(default_factory=dict)
    middleware: dict[str, Stat] = field(default_factory=dict)

    def mw(self, metric: str) -> float | None:
        """Mean of a middleware metric, None when not measured."""
        s = self.middleware.get(metric)
        return s.mean if s is not None else None


def layer_servers(params: dict[str, Any]) -> int:
    """m = workers x middlewares (DOMAIN.md): the worker threads serving requests."""
    return int(params["workers"]) * int(params["middlewares"])


def worker_service_s(c: MeasuredConfig) -> float | None:
    """S = middleware response - queue time, s; None without middleware times."""
    r, w = c.mw("response_time_us"), c.mw("queue_time_us")
    if r is None or w is None or r - w <= 0:
        return None
    return (r - w) / 1e6


def group_key(values: dict[str, Any]) -> tuple[tuple[str, str], ...]:
    """Configurations sharing everything but the client counts form one model group."""
    return tuple(
        sorted((k, repr(v)) for k, v in values.items() if k not in CLIENT_COUNT_PARAMETERS)
    )


@dataclass(frozen=True)
class Compared:
    """A predicted quantity against its measurement."""

    predicted: float | None
    measured: float | None
    error_percent: float | None  # 100 (predicted - measured) / measured


def _compare(predicted: float | None, measured: float | None) -> Compared:
    err = None
    if predicted is not None and measured is not None and measured > 0:
        err = 100.0 * (predicted - measured) / measured
    return Compared(predicted, measured, err)


@dataclass(frozen=True)
class QueuePrediction:
    """One model's predictions at one configuration (None values when unstable)."""

    model: Literal["M/M/1", "M/M/m"]
    servers: int
    service_rate_per_s: float  # per server
    utilization: float  # rho
    stable: bool
    queue_length: Compared  # E[nq] vs measured mean queue length
    waiting_time_s: Compared  # E[w] vs measured queue time
    response_time_s: Compared  # E[r] vs measured middleware response time


@dataclass(frozen=True)
class QueueModelRow:
    """M/M/1 and M/M/m at one configuration, with what they were filled from."""

    configuration_id: int
    index: int
    values: dict[str, Any]
    clients: int
    arrival_rate_per_s: float
    arrival_source: str
    service_time_s: float | None  # per server
    service_source: str
    mm1: QueuePrediction | None
    mmm: QueuePrediction | None
    note: str | None


def _predict(
    kind: Literal["M/M/1", "M/M/m"],
    lam: float,
    mu: float,
    m: int,
    measured: tuple[float | None, float | None, float | None],
) -> QueuePrediction:
    rho = lam / (m * mu) if kind == "M/M/m" else lam / mu
    q_m, w_m, r_m = measured
    if rho >= 1.0:
        return QueuePrediction(
            kind,
            m if kind == "M/M/m" else 1,
            mu,
            rho,
            False,
            _compare(None, q_m),
            _compare(None, w_m),
            _compare(None, r_m),
        )
    if kind == "M/M/1":
        a = mm1(lam, mu)
        q, w, r = a.mean_queued, a.mean_wait_s, a.mean_response_s
    else:
        b = mmm(lam, mu, m)
        q, w, r = b.mean_queued, b.mean_wait_s, b.mean_response_s
    return QueuePrediction(
        kind,
        m if kind == "M/M/m" else 1,
        mu,
        rho,
        True,
        _compare(q, q_m),
        _compare(w, w_m),
        _compare(r, r_m),
    )


def queue_model_rows(
    configs: list[MeasuredConfig], service_rate: ServiceRateSource = "worker_time"
) -> list[QueueModelRow]:
    """M/M/1 and M/M/m per configuration (see the module docstring for the conventions)."""
    require(len(configs) > 0, "experiment", "no configuration has succeeded runs")
    peak: dict[tuple[tuple[str, str], ...], tuple[float, int]] = {}
    for c in configs:
        lam = _arrival(c)[0]
        key = group_key(c.values)
        if lam is not None and (key not in peak or lam > peak[key][0]):
            peak[key] = (lam, c.clients)
    rows = []
    for c in configs:
        lam, lam_source = _arrival(c)
        if lam is None:
            continue
        require(int(c.params.get("middlewares", 0)) >= 1, "middlewares", "models need a middleware")
        m = layer_servers(c.params)
        measured = (
            c.mw("queue_length"),
            _us_to_s(c.mw("queue_time_us")),
            _us_to_s(c.mw("response_time_us")),
        )
        if service_rate == "worker_time":
            s = worker_service_s(c)
            source = "middleware response - queue time at this configuration"
            mu_server = 1.0 / s if s is not None else None
        else:
            x_max, n_at = peak[group_key(c.values)]
            mu_server = x_max / m
            s = 1.0 / mu_server
            source = f"largest throughput of the group ({x_max:.6g}/s at N = {n_at}) / m"
        one = many = None
        note: str | None = "service time unknown: the middleware did not report queue times"
        if mu_server is not None:
            one = _predict("M/M/1", lam, m * mu_server, m, measured)
            many = _predict("M/M/m", lam, mu_server, m, measured)
            unstable = [p.model for p in (one, many) if not p.stable]
            note = None
            if unstable:
                note = f"{' and '.join(unstable)} unstable (rho >= 1): no steady state"
        else:
            source = "no middleware response and queue times measured"
        rows.append(
            QueueModelRow(
                c.configuration_id,
                c.index,
                c.values,
                c.clients,
                lam,
                lam_source,
                s,
                source,
                one,
                many,
                note,
            )
        )
    return rows


def _arrival(c: MeasuredConfig) -> tuple[float | None, str]:
    x = c.mw("throughput_per_s")
    if x is not None and x > 0:
        return x, "throughput measured by the middlewares"
    cx = c.client.get("throughput_per_s")
    if cx is not None and cx.mean > 0:
        return cx.mean, "throughput measured by the clients (no middleware data)"
    return None, ""


def _us_to_s(v: float | None) -> float | None:
    return v / 1e6 if v is not None else None


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
class MeasuredUtilization:
    """The utilization law at one configuration, for a station whose busy time is measured."""

    configuration_id: int
    clients: int
    station: str
    servers: int
    busy: float  # mean busy servers: busy seconds per second
    utilization: float  # per server, busy / servers
    throughput_per_s: float  # X, the system throughput the demand is per
    demand_s: float  # D = servers U / X, per client request (all its visits)
    source: str
    note: str | None = None


def measured_utilization(c: MeasuredConfig) -> MeasuredUtilization | None:
    """The worker pool's utilization and demand at `c` (module docstring); None when the
    middleware did not report its times."""
    hold_s, x_mw = worker_service_s(c), c.mw("throughput_per_s")
    if hold_s is None or x_mw is None or x_mw <= 0:
        return None
    m = layer_servers(c.params)
    busy = x_mw * hold_s
    x, x_source = x_mw, "the middlewares' throughput (no client data)"
    x_client = _mean(c.client, "throughput_per_s")
    if x_client is not None and x_client > 0:
        x, x_source = x_client, "the clients' throughput"
    utilization = busy / m
    return MeasuredUtilization(
        c.configuration_id,
        c.clients,
        "worker pool",
        m,
        busy,
        utilization,
        x,
        m * utilization / x,
        f"busy = X_mw (R - W) = {x_mw:.6g}/s x {hold_s * 1e6:.4g} us (middleware response - "
        f"queue time: each request's worker hold time), U = busy / m with m = {m}; "
        f"D = m U / X with X = {x:.6g}/s, {x_source}",
        None
        if utilization <= 1.0
        else f"U = {utilization:.3g} > 1: more worker time measured than {m} workers have; "
        "the middleware's times and throughput disagree (check the window and the queue time)",
    )


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
                _us_to_s(_mean(c.client, "response_time_us")),
                _us_to_s(_std(c.client, "response_time_us")),
            )
            for c in members
        )
        group = {k: v for k, v in first.values.items() if k not in CLIENT_COUNT_PARAMETERS}
        measured = tuple(u for c in members if (u := measured_utilization(c)) is not None)
        out.append(NetworkGroup(group, system, estimates, points, measured))
    return out


def _mean(stats: dict[str, Stat], metric: str) -> float | None:
    s = stats.get(metric)
    return s.mean if s is not None else None


def _std(stats: dict[str, Stat], metric: str) -> float | None:
    s = stats.get(metric)
    return s.std if s is not None else None


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
    r_client = _mean(low.client, "response_time_us")
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
    x_top = _arrival(top)[0]
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
        [(_mean(c.client, "response_time_us") or 0.0) / 1e6 for c in members],
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
