"""M/M/1 and M/M/m per configuration against the middleware's measurements (the conventions
are backend.modelfit.fit's; pure: measured rows in)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from backend.analysis.errors import require
from backend.analysis.mm1 import mm1
from backend.analysis.mmm import mmm
from backend.analysis.model_fit import Fit, Quantity, fit
from backend.modelfit.fit import (
    MeasuredConfig,
    ServiceRateSource,
    arrival,
    group_key,
    layer_servers,
    us_to_s,
    worker_service_s,
)


@dataclass(frozen=True)
class Compared:
    """A predicted quantity against its measurement."""

    predicted: float | None
    measured: float | None
    error_percent: float | None  # 100 (predicted - measured) / measured
    fit: Fit | None  # None when not measured


def _compare(
    quantity: Quantity,
    predicted: float | None,
    measured: float | None,
    where: str,
    lower_bound: float | None = None,
) -> Compared:
    err = None
    if predicted is not None and measured is not None and measured > 0:
        err = 100.0 * (predicted - measured) / measured
    flag = None
    if measured is not None:
        flag = fit(quantity, measured, predicted, lower_bound, "lower", where)
    return Compared(predicted, measured, err, flag)


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
    capacity: Fit  # the measured arrival rate against the layer's capacity m mu


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
    clients: int,
) -> QueuePrediction:
    rho = lam / (m * mu) if kind == "M/M/m" else lam / mu
    q_m, w_m, r_m = measured
    where = f"{kind} at N = {clients}"
    capacity = fit("throughput", lam, None, m * mu if kind == "M/M/m" else mu, "upper", where)
    service_s = 1.0 / mu  # a request's time in service: no response can be shorter
    q = w = r = None
    if rho < 1.0:
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
        rho < 1.0,
        _compare("queue length", q, q_m, where),
        _compare("waiting time", w, w_m, where),
        _compare("response time", r, r_m, where, service_s if kind == "M/M/m" else None),
        capacity,
    )


def queue_model_rows(
    configs: list[MeasuredConfig], service_rate: ServiceRateSource = "worker_time"
) -> list[QueueModelRow]:
    """M/M/1 and M/M/m per configuration (see the module docstring for the conventions)."""
    require(len(configs) > 0, "experiment", "no configuration has succeeded runs")
    peak: dict[tuple[tuple[str, str], ...], tuple[float, int]] = {}
    for c in configs:
        lam = arrival(c)[0]
        key = group_key(c.values)
        if lam is not None and (key not in peak or lam > peak[key][0]):
            peak[key] = (lam, c.clients)
    rows = []
    for c in configs:
        lam, lam_source = arrival(c)
        if lam is None:
            continue
        require(int(c.params.get("middlewares", 0)) >= 1, "middlewares", "models need a middleware")
        m = layer_servers(c.params)
        measured = (
            c.mw("queue_length"),
            us_to_s(c.mw("queue_time_us")),
            us_to_s(c.mw("response_time_us")),
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
            one = _predict("M/M/1", lam, m * mu_server, m, measured, c.clients)
            many = _predict("M/M/m", lam, mu_server, m, measured, c.clients)
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
