"""M/M/m against Jain Box 31.2, the published checks and a direct distribution sum."""

import math

import numpy as np
import pytest
from scipy.special import gammaln

from backend.analysis.errors import AnalysisError
from backend.analysis.mm1 import mm1
from backend.analysis.mmm import mmm


def test_mmm_reproduces_first_published_check() -> None:
    r = mmm(2_840.73, 421.93, 16)
    assert round(r.utilization, 2) == 0.42
    assert round(r.mean_jobs, 2) == 6.73
    assert round(r.mean_response_s * 1e3, 2) == 2.37


def test_mmm_reproduces_second_published_check() -> None:
    r = mmm(5_955.95, 421.93, 16)
    assert round(r.utilization, 2) == 0.88
    assert round(r.prob_queueing, 2) == 0.53
    assert round(r.mean_queued, 2) == 3.98
    assert round(r.mean_jobs, 2) == 18.10
    assert round(r.mean_wait_s * 1e3, 2) == 0.67
    assert round(r.mean_response_s * 1e3, 2) == 3.04


def _direct_distribution(lam: float, mu: float, m: int, n_max: int) -> np.ndarray:
    """p_n from the birth-death balance equations, normalised in log space."""
    n = np.arange(n_max)
    a = lam / mu
    log_w = np.where(
        n < m,
        n * math.log(a) - gammaln(n + 1),
        m * math.log(m) - gammaln(m + 1) + n * math.log(a / m),
    )
    w = np.exp(log_w - log_w.max())
    return np.asarray(w / w.sum(), dtype=np.float64)


@pytest.mark.parametrize(
    ("lam", "mu", "m"), [(5955.95, 421.93, 16), (90.0, 1.0, 128), (500.0, 1.0, 512), (3.0, 2.0, 2)]
)
def test_mmm_moments_match_direct_sum(lam: float, mu: float, m: int) -> None:
    r = mmm(lam, mu, m)
    p = _direct_distribution(lam, mu, m, 20_000)
    n = np.arange(p.size)
    nq = np.maximum(n - m, 0)
    assert float(p[0]) == pytest.approx(r.p0, rel=1e-9, abs=1e-300)
    assert float(p[n >= m].sum()) == pytest.approx(r.prob_queueing, rel=1e-9, abs=1e-300)
    assert float((n * p).sum()) == pytest.approx(r.mean_jobs, rel=1e-9)
    assert float((n * n * p).sum() - (n * p).sum() ** 2) == pytest.approx(r.var_jobs, rel=1e-8)
    assert float((nq * p).sum()) == pytest.approx(r.mean_queued, rel=1e-8, abs=1e-300)
    var_q = float((nq * nq * p).sum() - (nq * p).sum() ** 2)
    assert var_q == pytest.approx(r.var_queued, rel=1e-8, abs=1e-300)
    assert r.prob_n_jobs(m + 3) == pytest.approx(float(p[m + 3]), rel=1e-9, abs=1e-300)


def test_mmm_stays_finite_at_512_servers() -> None:
    r = mmm(500.0, 1.0, 512)
    values = [r.p0, r.prob_queueing, r.mean_jobs, r.mean_response_s, r.var_response_s2]
    assert all(math.isfinite(v) for v in values)
    assert r.mean_jobs == pytest.approx(500.0 + r.mean_queued)


def test_mmm_with_one_server_equals_mm1() -> None:
    a, b = mmm(7.0, 10.0, 1), mm1(7.0, 10.0)
    assert a.mean_jobs == pytest.approx(b.mean_jobs)
    assert a.var_jobs == pytest.approx(b.var_jobs)
    assert a.var_queued == pytest.approx(b.var_queued)
    assert a.var_response_s2 == pytest.approx(b.var_response_s2)
    assert a.var_wait_s2 == pytest.approx(b.var_wait_s2)
    assert a.wait_percentiles[1].value_s == pytest.approx(b.wait_percentiles[1].value_s)


def test_mmm_rejects_saturation_and_bad_server_count() -> None:
    with pytest.raises(AnalysisError) as err:
        mmm(16 * 421.93, 421.93, 16)
    assert err.value.field == "arrival_rate_per_s"
    assert "unstable" in err.value.reason
    with pytest.raises(AnalysisError) as err:
        mmm(1.0, 2.0, 0)
    assert err.value.field == "servers"
