"""M/M/1 against Jain Box 31.1 and DOMAIN.md's published check."""

import math

import pytest

from backend.analysis.errors import AnalysisError
from backend.analysis.mm1 import mm1


def test_mm1_reproduces_published_check() -> None:
    r = mm1(18_062.0, 20_788.0)
    assert round(100 * r.utilization, 2) == 86.89
    assert round(r.mean_jobs, 2) == 6.63
    assert round(r.var_jobs, 2) == 50.53
    assert round(r.mean_queued, 2) == 5.76
    assert round(r.mean_response_s * 1e6, 2) == 366.84
    assert round(r.mean_wait_s * 1e6, 2) == 318.73


def test_mm1_moments_match_geometric_distribution() -> None:
    r = mm1(3.0, 4.0)
    probs = [r.prob_n_jobs(n) for n in range(2000)]
    mean = sum(n * p for n, p in enumerate(probs))
    var = sum(n * n * p for n, p in enumerate(probs)) - mean**2
    mean_q = sum(max(n - 1, 0) * p for n, p in enumerate(probs))
    var_q = sum(max(n - 1, 0) ** 2 * p for n, p in enumerate(probs)) - mean_q**2
    assert mean == pytest.approx(r.mean_jobs)
    assert var == pytest.approx(r.var_jobs)
    assert mean_q == pytest.approx(r.mean_queued)
    assert var_q == pytest.approx(r.var_queued)
    assert r.prob_at_least_n_jobs(3) == pytest.approx(sum(probs[3:]))


def test_mm1_percentiles_invert_the_cdfs() -> None:
    r = mm1(3.0, 4.0, percentiles=(90.0,))
    t = r.response_percentiles[0].value_s
    assert 1 - math.exp(-t / r.mean_response_s) == pytest.approx(0.90)
    w = r.wait_percentiles[0].value_s
    rho = r.utilization
    assert 1 - rho * math.exp(-w * rho / r.mean_wait_s) == pytest.approx(0.90)
    # Jain: the 90th percentile of r is about 2.3 E[r].
    assert t / r.mean_response_s == pytest.approx(math.log(10))


def test_mm1_busy_period_matches_mg1_formula() -> None:
    lam, mu = 2.0, 5.0
    r = mm1(lam, mu)
    rho = lam / mu
    second_moment = (2 / mu**2) / (1 - rho) ** 3  # M/G/1: E[B^2] = E[S^2] / (1 - rho)^3
    assert r.var_busy_period_s2 == pytest.approx(second_moment - r.mean_busy_period_s**2)


@pytest.mark.parametrize(
    ("lam", "mu", "field"),
    [
        (5, 5, "arrival_rate_per_s"),
        (6, 5, "arrival_rate_per_s"),
        (0, 5, "arrival_rate_per_s"),
        (1, -2, "service_rate_per_s"),
    ],
)
def test_mm1_rejects_undefined_inputs(lam: float, mu: float, field: str) -> None:
    with pytest.raises(AnalysisError) as err:
        mm1(lam, mu)
    assert err.value.field == field
