"""Exact single-class MVA: the published Octave check and textbook identities."""

import numpy as np
import pytest

from backend.analysis.errors import AnalysisError
from backend.analysis.mva.exact import solve_mva
from backend.analysis.mva.logconv import log_convolve, log_factor_multi, marginal_stats
from backend.analysis.mva.network import Station, StationKind


def _octave_network() -> tuple[Station, ...]:
    return (
        Station("delay_in", StationKind.DELAY, 0.3e-3),
        Station("net_thread", StationKind.QUEUE, 0.08661008e-3),
        Station("workers", StationKind.MULTI, 1.094205e-3, servers=64),
        Station("memcached", StationKind.QUEUE, 1 / 2940),
        Station("delay_out", StationKind.DELAY, 0.3e-3),
    )


def test_mva_reproduces_published_octave_check() -> None:
    res = solve_mva(_octave_network(), 24, 0.0)
    st = {c.station.name: c for c in res.stations}
    assert round(float(res.throughput_per_s[-1]), 2) == 2940.00
    mc = st["memcached"]
    assert round(float(mc.utilization_per_server[-1]), 2) == 1.00
    assert round(float(mc.queue_length[-1]), 2) == 18.68
    assert round(float(mc.residence_time_s[-1]) * 1e3, 2) == 6.35
    net = st["net_thread"]
    assert round(float(net.utilization_per_server[-1]), 2) == 0.25
    assert round(float(net.queue_length[-1]), 2) == 0.34
    wk = st["workers"]
    assert round(float(wk.utilization_per_server[-1]), 2) == 0.05  # Octave: X S / m
    # Published 3.21 is truncated: with N = 24 < 64 servers nobody waits, so R = S exactly and
    # Little's law gives Q = X S = 2940 x 1.094205 ms = 3.2170; agree to the last digit given.
    assert abs(float(wk.queue_length[-1]) - 3.21) < 0.01
    assert float(wk.queue_length[-1]) == pytest.approx(
        float(res.throughput_per_s[-1]) * 1.094205e-3
    )
    assert round(float(wk.residence_time_s[-1]) * 1e3, 2) == 1.09
    # JMT's convention: probability the pool is not empty, far above the per-server 0.05.
    assert wk.prob_busy is not None
    assert 0.9 < float(wk.prob_busy[-1]) < 1.0
    for name in ("delay_in", "delay_out"):
        assert round(float(st[name].queue_length[-1]), 2) == 0.88
    assert res.bottleneck() == "memcached"


def test_mva_population_is_conserved() -> None:
    res = solve_mva(_octave_network(), 300, 0.002)
    total = sum(c.queue_length for c in res.stations) + res.throughput_per_s * 0.002
    np.testing.assert_allclose(total, res.populations, rtol=1e-10)


def test_mva_single_queue_matches_closed_form_n1() -> None:
    res = solve_mva((Station("q", StationKind.QUEUE, 0.01, visits=2.0),), 1, 0.03)
    assert res.throughput_per_s[0] == pytest.approx(1 / (0.02 + 0.03))
    assert res.stations[0].throughput_per_s[0] == pytest.approx(2 / 0.05)


def test_multi_server_factor_with_one_server_is_a_queue() -> None:
    # The load-dependent path with m = 1 must give the single-server queue's answer.
    n_max, d, z = 400, 0.004, 0.05
    delay = np.arange(n_max + 1) * np.log(z) - np.array(
        [np.sum(np.log(np.arange(1, j + 1))) for j in range(n_max + 1)]
    )
    f = log_factor_multi(d, 1, n_max)
    np.testing.assert_allclose(f, np.arange(n_max + 1) * np.log(d))
    log_g = log_convolve(delay, f)
    q_ld, busy = marginal_stats(f, delay, log_g)
    ref = solve_mva((Station("q", StationKind.QUEUE, d),), n_max, z)
    np.testing.assert_allclose(q_ld, ref.stations[0].queue_length, rtol=1e-9)
    np.testing.assert_allclose(busy, ref.stations[0].utilization_per_server, rtol=1e-9)


def test_mva_rejects_undefined_networks() -> None:
    with pytest.raises(AnalysisError) as err:
        solve_mva((Station("q", StationKind.QUEUE, 0.0),), 5, 0.0)
    assert err.value.field == "stations"
    with pytest.raises(AnalysisError) as err:
        solve_mva((Station("q", StationKind.QUEUE, 1.0),), 0, 0.0)
    assert err.value.field == "population"
    with pytest.raises(AnalysisError) as err:
        solve_mva((Station("w", StationKind.MULTI, 1.0, servers=0),), 3, 0.0)
    assert err.value.field == "stations[0].servers"
    # A subnormal think time overflows intermediate G(n); the answer must still be finite.
    tiny = solve_mva((Station("w", StationKind.MULTI, 1.0, servers=2),), 2, 1.1e-308)
    np.testing.assert_allclose(tiny.throughput_per_s, [1.0, 2.0])
    # Five jobs in a 1e-308 s delay: X = 5e308 is beyond double range, so a clear error.
    with pytest.raises(AnalysisError) as err:
        solve_mva((Station("d", StationKind.DELAY, 1e-308),), 5, 0.0)
    assert "double range" in err.value.reason
    # X = 1e305 is finite, but a station visited 1e6 times per job completes X V = inf.
    heavy = (
        Station("q", StationKind.QUEUE, 1.0, visits=1e-305),
        Station("hot", StationKind.QUEUE, 0.0, visits=1e6),
    )
    with pytest.raises(AnalysisError) as err:
        solve_mva(heavy, 1, 0.0)
    assert err.value.field == "stations"


@pytest.mark.parametrize("kind,servers", [(StationKind.QUEUE, 1), (StationKind.MULTI, 4)])
def test_response_time_keeps_its_digits_beside_a_long_think_time(
    kind: StationKind, servers: int
) -> None:
    # N / X - Z cancels: with Z = 1e6 s and R = 1e-9 s it kept no correct digit (even < 0).
    res = solve_mva((Station("s", kind, 1e-9, servers=servers),), 3, 1e6)
    np.testing.assert_allclose(res.response_time_s, [1e-9] * 3, rtol=1e-9)
