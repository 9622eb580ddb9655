"""Hypothesis property tests: invariants the models must satisfy for any valid input."""

import math

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from backend.analysis.factorial import factorial, sign_table
from backend.analysis.mm1 import mm1
from backend.analysis.mmm import mmm
from backend.analysis.mva.exact import solve_mva
from backend.analysis.mva.network import Station, StationKind

rates = st.floats(min_value=0.01, max_value=1e5, allow_nan=False, allow_infinity=False)
fractions = st.floats(min_value=0.01, max_value=0.98)
demand = st.floats(min_value=1e-5, max_value=1.0)


@given(mu=rates, rho=fractions)
def test_little_law_inside_mm1(mu: float, rho: float) -> None:
    r = mm1(rho * mu, mu)
    assert math.isclose(r.mean_jobs, r.arrival_rate_per_s * r.mean_response_s, rel_tol=1e-9)
    assert math.isclose(r.mean_queued, r.arrival_rate_per_s * r.mean_wait_s, rel_tol=1e-9)


@given(mu=rates, rho=fractions, m=st.integers(min_value=1, max_value=256))
def test_little_law_inside_mmm(mu: float, rho: float, m: int) -> None:
    r = mmm(rho * m * mu, mu, m)
    lam = r.arrival_rate_per_s
    assert math.isclose(r.mean_jobs, lam * r.mean_response_s, rel_tol=1e-9)
    assert math.isclose(r.mean_queued, lam * r.mean_wait_s, rel_tol=1e-9, abs_tol=1e-300)
    assert 0.0 <= r.prob_queueing <= 1.0 and 0.0 < r.p0 <= 1.0


@given(mu=rates, rho=fractions)
def test_mmm_with_one_server_equals_mm1(mu: float, rho: float) -> None:
    a, b = mmm(rho * mu, mu, 1), mm1(rho * mu, mu)
    for x, y in (
        (a.mean_jobs, b.mean_jobs),
        (a.var_jobs, b.var_jobs),
        (a.mean_queued, b.mean_queued),
        (a.mean_response_s, b.mean_response_s),
        (a.var_wait_s2, b.var_wait_s2),
        (a.p0, b.p0),
        (a.prob_queueing, b.utilization),
    ):
        assert math.isclose(x, y, rel_tol=1e-9)


@settings(max_examples=50, deadline=None)
@given(s=demand, z=demand, n=st.integers(min_value=1, max_value=60))
def test_mva_single_queue_equals_machine_repairman(s: float, z: float, n: int) -> None:
    # Finite-source M/M/1//N: p0 = [sum_k N!/(N-k)! (S/Z)^k]^-1, X = (1 - p0) / S.
    log_terms = [
        math.lgamma(n + 1) - math.lgamma(n - k + 1) + k * math.log(s / z) for k in range(n + 1)
    ]
    top = max(log_terms)
    p0 = math.exp(-top) / sum(math.exp(t - top) for t in log_terms)
    res = solve_mva((Station("q", StationKind.QUEUE, s),), n, z)
    x = float(res.throughput_per_s[-1])
    assert math.isclose(x, (1 - p0) / s, rel_tol=1e-9)
    assert math.isclose(float(res.response_time_s[-1]), n / x - z, rel_tol=1e-9)


@settings(max_examples=40, deadline=None)
@given(
    demands=st.lists(demand, min_size=1, max_size=5),
    kinds=st.lists(st.sampled_from(["delay", "queue", "multi"]), min_size=5, max_size=5),
    servers=st.integers(min_value=2, max_value=64),
    n=st.integers(min_value=1, max_value=150),
    z=st.one_of(st.just(0.0), st.floats(min_value=1e-6, max_value=1.0)),
)
def test_little_law_inside_mva(
    demands: list[float], kinds: list[str], servers: int, n: int, z: float
) -> None:
    stations = tuple(
        Station(
            f"s{i}",
            StationKind(kinds[i]),
            d,
            servers=servers if StationKind(kinds[i]) is StationKind.MULTI else 1,
        )
        for i, d in enumerate(demands)
    )
    res = solve_mva(stations, n, z)
    total = sum(c.queue_length for c in res.stations) + res.throughput_per_s * z
    np.testing.assert_allclose(total, res.populations, rtol=1e-8)
    for c in res.stations:
        np.testing.assert_allclose(
            c.queue_length, res.throughput_per_s * c.residence_time_s, rtol=1e-12
        )
        if c.station.kind is not StationKind.DELAY:
            assert c.prob_busy is not None
            assert np.all(c.prob_busy >= -1e-12) and np.all(c.prob_busy <= 1.0 + 1e-12)
            assert np.all(c.utilization_per_server <= 1.0 + 1e-9)


@settings(max_examples=40, deadline=None)
@given(
    k=st.integers(min_value=2, max_value=6),
    r=st.integers(min_value=1, max_value=4),
    seed=st.integers(min_value=0, max_value=2**32 - 1),
)
def test_factorial_effects_reconstruct_means_and_variation_sums_to_100(
    k: int, r: int, seed: int
) -> None:
    y = np.random.default_rng(seed).normal(50, 10, (2**k, r))
    res = factorial(tuple("ABCDEF"[:k]), y, confidence=None)
    table, _ = sign_table(k)
    q = np.array([e.value for e in res.effects])
    np.testing.assert_allclose(table @ q, y.mean(axis=1), rtol=1e-10)
    total = sum(e.variation_percent for e in res.effects) + res.error_percent
    assert math.isclose(total, 100.0, rel_tol=1e-9)
