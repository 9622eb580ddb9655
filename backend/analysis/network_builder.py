"""Build DOMAIN.md's closed network from an experiment configuration and measured times.

clients (think time) -> network delay -> [per middleware: net thread -> worker pool] ->
memcached servers -> network delay. Visit ratios: a middleware gets 1/M of the requests,
a server 1/S of the gets under hashing, and each set visits R of the S servers (R/S each).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from backend.analysis.errors import require, require_non_negative, require_positive
from backend.analysis.model_fit import Fit, fit
from backend.analysis.mva.bounds import bounds
from backend.analysis.mva.exact import solve_mva
from backend.analysis.mva.network import Station, StationKind
from backend.analysis.mva.result import MvaResult


@dataclass(frozen=True)
class SystemConfig:
    """What the model needs from an experiment configuration and its measurements (seconds)."""

    servers: int
    middlewares: int
    workers: int  # per middleware
    network_delay_s: float  # one way; the model has one delay each way
    net_thread_service_s: float
    worker_service_s: float  # time a worker holds a request (server time included)
    server_service_s: float  # memcached service time per request
    write_fraction: float = 0.0
    replication: int = 1  # R servers per set
    think_time_s: float = 0.0


def build_network(cfg: SystemConfig) -> tuple[Station, ...]:
    """Stations in the order of the request path, with visit ratios per job cycle."""
    require(cfg.servers >= 1, "servers", "must be at least 1")
    require(cfg.middlewares >= 1, "middlewares", "must be at least 1")
    require(cfg.workers >= 1, "workers", "must be at least 1")
    require(1 <= cfg.replication <= cfg.servers, "replication", "must lie in 1..servers")
    require(0.0 <= cfg.write_fraction <= 1.0, "write_fraction", "must lie in [0, 1]")
    require_non_negative(cfg.network_delay_s, "network_delay_s")
    require_non_negative(cfg.net_thread_service_s, "net_thread_service_s")
    require_positive(cfg.worker_service_s, "worker_service_s")
    require_positive(cfg.server_service_s, "server_service_s")
    share = 1.0 / cfg.middlewares
    stations = [Station("network_in", StationKind.DELAY, cfg.network_delay_s)]
    for i in range(cfg.middlewares):
        stations.append(
            Station(f"net_thread_{i}", StationKind.QUEUE, cfg.net_thread_service_s, visits=share)
        )
        stations.append(
            Station(
                f"workers_{i}",
                StationKind.MULTI,
                cfg.worker_service_s,
                visits=share,
                servers=cfg.workers,
            )
        )
    per_server = ((1.0 - cfg.write_fraction) + cfg.write_fraction * cfg.replication) / cfg.servers
    for j in range(cfg.servers):
        stations.append(
            Station(f"memcached_{j}", StationKind.QUEUE, cfg.server_service_s, visits=per_server)
        )
    stations.append(Station("network_out", StationKind.DELAY, cfg.network_delay_s))
    return tuple(stations)


@dataclass(frozen=True)
class ModelRow:
    """Model against measurement at one client count."""

    clients: int
    measured_throughput_per_s: float
    model_throughput_per_s: float
    throughput_deviation_percent: float  # 100 (model - measured) / measured
    measured_response_time_s: float | None
    model_response_time_s: float
    response_deviation_percent: float | None
    bound_throughput_per_s: float  # the asymptotic upper bound at this N
    bound_response_time_s: float  # the asymptotic lower bound at this N
    throughput_fit: Fit
    response_time_fit: Fit | None  # None when no response time was measured


def model_vs_measurement(
    cfg: SystemConfig,
    clients: tuple[int, ...],
    measured_throughput: tuple[float, ...],
    measured_response_time_s: tuple[float | None, ...] | None = None,
) -> tuple[MvaResult, list[ModelRow]]:
    """Solve the built network up to max(clients) and compare at each measured point."""
    require(len(clients) > 0, "clients", "no measurements")
    require(len(clients) == len(measured_throughput), "measured_throughput", "one per client count")
    require(all(c >= 1 for c in clients), "clients", "client counts must be >= 1")
    require(all(x > 0 for x in measured_throughput), "measured_throughput", "must be positive")
    resp = measured_response_time_s or tuple(None for _ in clients)
    require(len(resp) == len(clients), "measured_response_time_s", "one per client count")
    network = build_network(cfg)
    result = solve_mva(network, max(clients), cfg.think_time_s)
    limits = bounds(network, max(clients), cfg.think_time_s)
    rows = []
    for n, x, r in zip(clients, measured_throughput, resp, strict=True):
        mx = float(result.throughput_per_s[n - 1])
        mr = float(result.response_time_s[n - 1])
        bx = float(limits.aba_throughput_upper[n - 1])
        br = float(limits.aba_response_lower_s[n - 1])
        where = f"N = {n}"
        rows.append(
            ModelRow(
                n,
                x,
                mx,
                100.0 * (mx - x) / x,
                r,
                mr,
                100.0 * (mr - r) / r if r is not None and r > 0 else None,
                bx,
                br,
                fit("throughput", x, mx, bx, "upper", where),
                None if r is None or r <= 0 else fit("response time", r, mr, br, "lower", where),
            )
        )
    return result, rows


def service_time_from_throughput(max_throughput: float) -> float:
    """Service time of a saturated single server: S = 1 / X_max (e.g. 1/2940 s)."""
    require_positive(max_throughput, "max_throughput")
    return float(1.0 / np.float64(max_throughput))
