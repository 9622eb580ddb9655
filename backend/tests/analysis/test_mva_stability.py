"""The load-dependent solver stays exact where the textbook recursion breaks down."""

import math
from fractions import Fraction

import numpy as np
import pytest
from scipy.special import gammaln

from backend.analysis.mva.exact import solve_mva
from backend.analysis.mva.network import Station, StationKind
from backend.tests.analysis.mva_reference import naive_float_p0, textbook_ld_mva


def test_naive_double_recursion_goes_negative_with_16_servers() -> None:
    # The failure this solver exists to avoid (DOMAIN.md: negative near N = 60 at m = 16).
    p0 = naive_float_p0(1.0, 16, 2.0, 120)
    assert min(p0) < 0


@pytest.mark.parametrize(("servers", "n_max"), [(16, 200), (64, 200)])
def test_ld_mva_matches_exact_rational_recursion(servers: int, n_max: int) -> None:
    z, d_ld, d_q = Fraction(1, 50), Fraction(3, 1000), Fraction(1, 10_000)
    ref = textbook_ld_mva([d_q, d_ld], [1, servers], ["queue", "multi"], n_max, z)
    res = solve_mva(
        (
            Station("q", StationKind.QUEUE, float(d_q)),
            Station("pool", StationKind.MULTI, float(d_ld), servers=servers),
        ),
        n_max,
        float(z),
    )
    x_ref = np.array([float(r[0]) for r in ref])
    np.testing.assert_allclose(res.throughput_per_s, x_ref, rtol=1e-9)
    for k in range(2):
        q_ref = np.array([float(r[1][k]) for r in ref])
        busy_ref = np.array([float(r[2][k]) for r in ref])
        np.testing.assert_allclose(res.stations[k].queue_length, q_ref, rtol=1e-8)
        busy = res.stations[k].prob_busy
        assert busy is not None
        np.testing.assert_allclose(busy, busy_ref, rtol=1e-8, atol=1e-12)
        assert np.all(busy <= 1.0)


def _scaled_weights(n: int, m: int, ratio: int) -> list[int]:
    """Integer-scaled product-form weights of a delay plus an m-server pool, j = 0..n.

    With Z = 1/a and D = 1/b (b = ratio a), w_j = Z^(n-j)/(n-j)! D^j/alpha(j); multiplying
    by b^n n! m^n turns every weight into the integer ratio^(n-j) C(n,j) j!/alpha(j) m^n.
    """
    out = []
    tail = 1  # j! / alpha(j) m^(j-m) scaled by m^n, kept integral
    for j in range(n + 1):
        if j > m:
            tail *= j
        base = ratio ** (n - j) * math.comb(n, j) * m**n
        out.append(base if j <= m else base * tail // m ** (j - m))
    return out


def _exact_repairman(m: int, n: int, ratio: int = 10, b: int = 100) -> tuple[float, float, float]:
    """X(n), Q(n) and P(busy) of the pool in exact integer arithmetic (Z = 1/10, D = 1/100)."""
    w_n, w_prev = _scaled_weights(n, m, ratio), _scaled_weights(n - 1, m, ratio)
    g_n, g_prev = sum(w_n), sum(w_prev)
    x = Fraction(g_prev * b * n * m, g_n)  # undo the scalings b^n n! m^n of G(n) and G(n-1)
    q = Fraction(sum(j * w for j, w in enumerate(w_n)), g_n)
    return float(x), float(q), float(1 - Fraction(w_n[0], g_n))


@pytest.mark.parametrize(("servers", "n"), [(16, 1000), (64, 1000), (64, 2000)])
def test_ld_mva_matches_exact_product_form_at_large_n(servers: int, n: int) -> None:
    x, q, busy = _exact_repairman(servers, n)  # Z = 0.1 s, D = 0.01 s: saturates near 11 m
    res = solve_mva((Station("pool", StationKind.MULTI, 0.01, servers=servers),), n, 0.1)
    pool = res.stations[0]
    assert pool.prob_busy is not None
    assert float(res.throughput_per_s[-1]) == pytest.approx(x, rel=1e-9)
    assert float(pool.queue_length[-1]) == pytest.approx(q, rel=1e-9)
    assert float(pool.prob_busy[-1]) == pytest.approx(busy, rel=1e-9)


def test_ld_mva_matches_log_space_product_form_at_every_n() -> None:
    # Delay + 16-server pool: marginals straight from the product form, for all n <= 3000.
    z, d, m, n_max = 0.05, 0.01, 16, 3000
    res = solve_mva((Station("pool", StationKind.MULTI, d, servers=m),), n_max, z)
    busy = res.stations[0].prob_busy
    assert busy is not None
    checks = [60, 100, 500, 1500, 3000]
    for n in checks:
        j = np.arange(n + 1)
        log_alpha = np.where(j <= m, gammaln(j + 1), gammaln(m + 1) + (j - m) * np.log(m))
        log_w = (n - j) * np.log(z) - gammaln(n - j + 1) + j * np.log(d) - log_alpha
        p = np.exp(log_w - log_w.max())
        p /= p.sum()
        assert float(res.stations[0].queue_length[n - 1]) == pytest.approx(float(j @ p), rel=1e-9)
        assert float(busy[n - 1]) == pytest.approx(1 - float(p[0]), rel=1e-9)
    assert np.all(np.isfinite(res.throughput_per_s))
    assert np.all(np.diff(res.throughput_per_s) >= -1e-9 * res.throughput_per_s[1:])
