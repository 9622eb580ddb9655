"""M/M/m queue (Jain Box 31.2), stable for m in the hundreds (no factorials, no powers)."""

from __future__ import annotations

import math
from dataclasses import dataclass

from scipy.special import gammaln, logsumexp

from backend.analysis.errors import AnalysisError, require_positive
from backend.analysis.mm1 import DEFAULT_PERCENTILES, Percentile, _check_percentiles

MAX_SERVERS = 100_000


@dataclass(frozen=True)
class MMmResult:
    """Box 31.2 outputs. Rates in 1/s, times in s, counts in jobs."""

    arrival_rate_per_s: float
    service_rate_per_s: float  # per server
    servers: int
    utilization: float  # rho = lambda / (m mu), per server
    p0: float
    prob_queueing: float  # Erlang C, Jain's varrho
    mean_jobs: float  # E[n], counts jobs in service too
    var_jobs: float
    mean_queued: float
    var_queued: float
    mean_response_s: float
    var_response_s2: float
    mean_wait_s: float
    var_wait_s2: float
    mean_busy_servers: float  # m rho = lambda / mu
    wait_percentiles: tuple[Percentile, ...]

    def prob_n_jobs(self, n: int) -> float:
        """P(n jobs in the system), evaluated in log space."""
        a = self.arrival_rate_per_s / self.service_rate_per_s
        m = self.servers
        if n < m:
            log_p = n * math.log(a) - float(gammaln(n + 1))
        else:
            log_p = m * math.log(m) - float(gammaln(m + 1)) + n * math.log(self.utilization)
        return math.exp(math.log(self.p0) + log_p)


def erlang_c(offered_load: float, servers: int) -> float:
    """Probability of queueing via the Erlang B recurrence, stable for any m."""
    b = 1.0
    for k in range(1, servers + 1):
        b = offered_load * b / (k + offered_load * b)
    rho = offered_load / servers
    return b / (1.0 - rho * (1.0 - b))


def _log_p0(offered_load: float, servers: int, rho: float) -> float:
    """log p0 from Box 31.2's sum, each term a^n/n! computed as exp(n log a - log n!)."""
    log_a = math.log(offered_load)
    terms = [n * log_a - float(gammaln(n + 1)) for n in range(servers)]
    terms.append(servers * log_a - float(gammaln(servers + 1)) - math.log1p(-rho))
    return -float(logsumexp(terms))


def mmm(
    arrival_rate: float,
    service_rate: float,
    servers: int,
    percentiles: tuple[float, ...] = DEFAULT_PERCENTILES,
) -> MMmResult:
    """Solve an M/M/m queue; raises AnalysisError when rho >= 1 or m < 1."""
    require_positive(arrival_rate, "arrival_rate_per_s")
    require_positive(service_rate, "service_rate_per_s")
    if not 1 <= servers <= MAX_SERVERS:
        raise AnalysisError("servers", f"must be between 1 and {MAX_SERVERS}, got {servers}")
    _check_percentiles(percentiles)
    lam, mu, m = arrival_rate, service_rate, servers
    a = lam / mu
    rho = a / m
    if rho >= 1.0:
        raise AnalysisError(
            "arrival_rate_per_s",
            f"utilization rho = lambda/(m mu) = {rho:.4f} >= 1: the queue is unstable",
        )
    one = 1.0 - rho
    pq = erlang_c(a, m)
    mean_nq = rho * pq / one
    mean_w = pq / (m * mu * one)
    var_w = pq * (2.0 - pq) / (m**2 * mu**2 * one**2)
    # P(W > t) = pq exp(-m mu (1-rho) t): invert for each q, zero when q <= P(W = 0).
    w_pct = tuple(
        Percentile(q, max(0.0, mean_w / pq * math.log(100.0 * pq / (100.0 - q))) if pq > 0 else 0.0)
        for q in percentiles
    )
    return MMmResult(
        arrival_rate_per_s=lam,
        service_rate_per_s=mu,
        servers=m,
        utilization=rho,
        p0=math.exp(_log_p0(a, m, rho)),
        prob_queueing=pq,
        mean_jobs=m * rho + mean_nq,
        var_jobs=m * rho + rho * pq * ((1.0 + rho - rho * pq) / one**2 + m),
        mean_queued=mean_nq,
        var_queued=rho * pq * (1.0 + rho - rho * pq) / one**2,
        mean_response_s=(1.0 / mu) * (1.0 + pq / (m * one)),
        var_response_s2=(1.0 / mu**2) * (1.0 + pq * (2.0 - pq) / (m**2 * one**2)),
        mean_wait_s=mean_w,
        var_wait_s2=var_w,
        mean_busy_servers=a,
        wait_percentiles=w_pct,
    )
