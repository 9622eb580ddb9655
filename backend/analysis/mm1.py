"""M/M/1 queue: every output of Jain's Box 31.1 (times in seconds, rates per second)."""

from __future__ import annotations

import math
from dataclasses import dataclass

from backend.analysis.errors import AnalysisError, require_positive

DEFAULT_PERCENTILES: tuple[float, ...] = (50.0, 90.0, 95.0, 99.0)


@dataclass(frozen=True)
class Percentile:
    """A q-percentile (q in percent) of a time, in seconds."""

    q: float
    value_s: float


@dataclass(frozen=True)
class MM1Result:
    """Box 31.1 outputs. Units: rates in 1/s, times in s, counts in jobs."""

    arrival_rate_per_s: float
    service_rate_per_s: float
    utilization: float  # rho = lambda / mu, also the traffic intensity
    p0: float  # probability of an empty system
    mean_jobs: float  # E[n], including the job in service
    var_jobs: float
    mean_queued: float  # E[nq], waiting jobs only
    var_queued: float
    mean_response_s: float  # E[r]
    var_response_s2: float
    mean_wait_s: float  # E[w]
    var_wait_s2: float
    mean_jobs_per_busy_period: float
    var_jobs_per_busy_period: float
    mean_busy_period_s: float
    var_busy_period_s2: float
    response_percentiles: tuple[Percentile, ...]
    wait_percentiles: tuple[Percentile, ...]

    def prob_n_jobs(self, n: int) -> float:
        """P(n jobs in the system) = (1 - rho) rho^n."""
        return (1.0 - self.utilization) * self.utilization**n

    def prob_at_least_n_jobs(self, n: int) -> float:
        """P(n or more jobs in the system) = rho^n."""
        return float(self.utilization**n)


def _check_percentiles(percentiles: tuple[float, ...]) -> None:
    for q in percentiles:
        if not 0.0 < q < 100.0:
            raise AnalysisError("percentiles", f"each must lie in (0, 100), got {q}")


def mm1(
    arrival_rate: float, service_rate: float, percentiles: tuple[float, ...] = DEFAULT_PERCENTILES
) -> MM1Result:
    """Solve an M/M/1 queue; raises AnalysisError when rho >= 1 (no steady state)."""
    require_positive(arrival_rate, "arrival_rate_per_s")
    require_positive(service_rate, "service_rate_per_s")
    _check_percentiles(percentiles)
    lam, mu = arrival_rate, service_rate
    rho = lam / mu
    if rho >= 1.0:
        raise AnalysisError(
            "arrival_rate_per_s",
            f"utilization rho = lambda/mu = {rho:.4f} >= 1: the queue is unstable",
        )
    one = 1.0 - rho
    mean_r = (1.0 / mu) / one
    mean_w = rho * (1.0 / mu) / one
    # Percentiles invert the CDFs F_r(t) = 1 - exp(-t/E[r]) and F_w(t) = 1 - rho exp(-t rho/E[w]).
    r_pct = tuple(Percentile(q, mean_r * math.log(100.0 / (100.0 - q))) for q in percentiles)
    w_pct = tuple(
        Percentile(q, max(0.0, mean_w / rho * math.log(100.0 * rho / (100.0 - q))))
        for q in percentiles
    )
    return MM1Result(
        arrival_rate_per_s=lam,
        service_rate_per_s=mu,
        utilization=rho,
        p0=one,
        mean_jobs=rho / one,
        var_jobs=rho / one**2,
        mean_queued=rho**2 / one,
        var_queued=rho**2 * (1.0 + rho - rho**2) / one**2,
        mean_response_s=mean_r,
        var_response_s2=(1.0 / mu**2) / one**2,
        mean_wait_s=mean_w,
        var_wait_s2=(2.0 - rho) * rho / (mu**2 * one**2),
        mean_jobs_per_busy_period=1.0 / one,
        var_jobs_per_busy_period=rho * (1.0 + rho) / one**3,
        mean_busy_period_s=1.0 / (mu * one),
        # M/G/1 busy period E[B^2] = E[S^2]/(1-rho)^3 with E[S^2] = 2/mu^2 for exponential S.
        var_busy_period_s2=(1.0 + rho) / (mu**2 * one**3),
        response_percentiles=r_pct,
        wait_percentiles=w_pct,
    )
