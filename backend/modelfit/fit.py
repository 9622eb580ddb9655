"""Queueing models filled from an experiment's own measurements (pure: measured rows in): the
conventions and the measured configuration both model families read (backend.modelfit.queues
for M/M/1 and M/M/m, backend.modelfit.network for the MVA network's inputs).

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
from typing import Any, Literal

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


def arrival(c: MeasuredConfig) -> tuple[float | None, str]:
    x = c.mw("throughput_per_s")
    if x is not None and x > 0:
        return x, "throughput measured by the middlewares"
    cx = c.client.get("throughput_per_s")
    if cx is not None and cx.mean > 0:
        return cx.mean, "throughput measured by the clients (no middleware data)"
    return None, ""


def us_to_s(v: float | None) -> float | None:
    return v / 1e6 if v is not None else None


def stat_mean(stats: dict[str, Stat], metric: str) -> float | None:
    s = stats.get(metric)
    return s.mean if s is not None else None


def stat_std(stats: dict[str, Stat], metric: str) -> float | None:
    s = stats.get(metric)
    return s.std if s is not None else None


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
    x_client = stat_mean(c.client, "throughput_per_s")
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
