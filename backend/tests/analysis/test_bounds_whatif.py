"""Asymptotic and balanced job bounds bracket the exact MVA; what-if sweeps re-solve."""

import numpy as np
import pytest

from backend.analysis.errors import AnalysisError
from backend.analysis.mva.bounds import bounds
from backend.analysis.mva.exact import solve_mva
from backend.analysis.mva.network import Station, StationKind
from backend.analysis.mva.whatif import SweepParameter, what_if

NET = (
    Station("cpu", StationKind.QUEUE, 0.005, visits=2.0),
    Station("disk", StationKind.QUEUE, 0.004, visits=3.0),
    Station("lan", StationKind.DELAY, 0.002),
)


def test_bounds_bracket_exact_mva() -> None:
    b = bounds(NET, 100, 0.5)
    res = solve_mva(NET, 100, 0.5)
    x = res.throughput_per_s
    eps = 1e-9
    assert b.bottleneck == "disk"
    assert b.max_demand_s == pytest.approx(0.012)
    assert np.all(x <= b.aba_throughput_upper * (1 + eps))
    assert np.all(x >= b.aba_throughput_lower * (1 - eps))
    assert b.bjb_throughput_upper is not None and b.bjb_throughput_lower is not None
    assert np.all(x <= b.bjb_throughput_upper * (1 + eps))
    assert np.all(x >= b.bjb_throughput_lower * (1 - eps))
    # Bounds and MVA count the delay center as think time; compare R + delay demand.
    r = res.response_time_s - 0.002
    assert b.bjb_response_lower_s is not None and b.bjb_response_upper_s is not None
    assert np.all(r >= b.bjb_response_lower_s * (1 - eps))
    assert np.all(r <= b.bjb_response_upper_s * (1 + eps))
    assert b.knee_population == pytest.approx((0.022 + 0.502) / 0.012)


def test_bounds_use_per_server_demand_of_a_pool() -> None:
    net = (
        Station("pool", StationKind.MULTI, 0.064, servers=64),
        Station("q", StationKind.QUEUE, 0.002),
    )
    b = bounds(net, 10, 0.0)
    assert b.bottleneck == "q"
    assert b.bjb_throughput_upper is None
    res = solve_mva(net, 10, 0.0)
    assert np.all(res.throughput_per_s <= b.aba_throughput_upper * (1 + 1e-9))


def test_bounds_reject_delay_only_networks() -> None:
    with pytest.raises(AnalysisError):
        bounds((Station("d", StationKind.DELAY, 1.0),), 3, 0.0)


def test_bounds_that_leave_double_range_are_refused() -> None:
    # A demand of 1e-319 s: 1 / D_max overflows.
    with pytest.raises(AnalysisError) as err:
        bounds((Station("q", StationKind.QUEUE, 1e-9, visits=1e-310),), 3, 0.0)
    assert err.value.field == "stations" and "not a finite number" in err.value.reason
    with pytest.raises(AnalysisError) as err:
        bounds((Station("q", StationKind.QUEUE, 0.5),), 3, 1.7e308)  # N* = (D + Z) / D_max
    assert err.value.field == "stations"


def test_what_if_service_time_sweep_matches_individual_solves() -> None:
    values = (0.002, 0.004, 0.008)
    sweep = what_if(NET, 50, 0.1, SweepParameter.SERVICE_TIME, values, station="cpu")
    for i, v in enumerate(values):
        net = (Station("cpu", StationKind.QUEUE, v, visits=2.0),) + NET[1:]
        assert sweep.throughput_per_s[i] == pytest.approx(
            solve_mva(net, 50, 0.1).throughput_per_s[-1]
        )
    assert np.all(np.diff(sweep.throughput_per_s) < 0)


def test_what_if_population_and_servers() -> None:
    sweep = what_if(NET, 1, 0.1, SweepParameter.POPULATION, (1.0, 10.0, 40.0))
    full = solve_mva(NET, 40, 0.1)
    assert sweep.throughput_per_s[1] == pytest.approx(full.throughput_per_s[9])
    servers = what_if(NET, 60, 0.1, SweepParameter.SERVERS, (1.0, 2.0, 4.0), station="disk")
    assert servers.throughput_per_s[0] < servers.throughput_per_s[1] < servers.throughput_per_s[2]


def test_what_if_rejects_unknown_station() -> None:
    with pytest.raises(AnalysisError) as err:
        what_if(NET, 5, 0.0, SweepParameter.VISITS, (1.0,), station="gpu")
    assert err.value.field == "station"


def test_a_long_delay_is_never_the_bottleneck() -> None:
    stations = (
        Station("network", StationKind.DELAY, 5e-3),
        Station("pool", StationKind.MULTI, 1e-3, servers=16),
        Station("memcached", StationKind.QUEUE, 1e-4),
    )
    res = solve_mva(stations, 50)
    # 1e-4 s beats 1e-3 / 16 s per server; the 5 ms delay never saturates.
    assert res.bottleneck() == "memcached"
    assert res.bottleneck() == bounds(stations, 50).bottleneck
