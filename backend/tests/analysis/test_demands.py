"""Models from measured demands (backend/analysis/demands.py)."""

import pytest

from backend.analysis.demands import (
    DemandPoint,
    Resource,
    demand_model,
    link_resource,
    utilization_law_demand,
)
from backend.analysis.errors import AnalysisError
from backend.analysis.mva.exact import solve_mva
from backend.analysis.mva.network import Station, StationKind

CPU = Station("CPU of local", StationKind.MULTI, 200e-6, servers=2)
MEMCACHED = Station("memcached server:0", StationKind.QUEUE, 60e-6)
THINK_S = 50e-6


def _measured(ns: list[int]) -> tuple[list[DemandPoint], list[Resource]]:
    """Points a network with known demands would measure: busy = X D (utilization law)."""
    solved = solve_mva((CPU, MEMCACHED), max(ns), THINK_S)
    xs = [float(solved.throughput_per_s[n - 1]) for n in ns]
    points = [
        DemandPoint(n, x, float(solved.response_time_s[n - 1]), 100e-6, x * 40e-6)
        for n, x in zip(ns, xs, strict=True)
    ]
    resources = [
        Resource(CPU.name, 2, tuple(x * CPU.demand_s for x in xs)),
        Resource(MEMCACHED.name, 1, tuple(x * MEMCACHED.demand_s for x in xs)),
    ]
    return points, resources


def test_utilization_law() -> None:
    assert utilization_law_demand(0.5, 10_000.0) == pytest.approx(50e-6)
    with pytest.raises(AnalysisError) as err:
        utilization_law_demand(0.5, 0.0)
    assert err.value.field == "throughput_per_s"


def test_demands_recover_the_network_that_was_measured() -> None:
    points, resources = _measured([1, 4, 16, 32])
    model = demand_model(points, resources, timer_tolerance=2.0)
    assert [s.demand_s for s in model.stations] == pytest.approx([200e-6, 60e-6])
    assert model.think_time_s == pytest.approx(THINK_S, rel=1e-6)
    for f in model.points:
        assert f.throughput_error_pct == pytest.approx(0.0, abs=1e-6)
        assert f.response_time_error_pct == pytest.approx(0.0, abs=1e-6)
        assert f.measured_throughput_per_s <= f.bound_throughput_per_s * (1 + 1e-9)
    assert model.warnings == ()
    # At N = 32 the shared CPU (2 cores at 200 us) saturates first: 1 / 100 us per core.
    assert model.bottleneck is not None
    assert model.bottleneck.resource == CPU.name and model.bottleneck.clients == 32
    assert model.bottleneck.utilization == pytest.approx(points[-1].throughput_per_s * 200e-6 / 2)


def test_each_warning() -> None:
    points, resources = _measured([1, 8])
    # A point measured above what the pooled demands allow, and a CPU busier than its cores.
    x = points[1].throughput_per_s * 3
    fast = DemandPoint(8, x, points[1].response_time_s, 100e-6, x * 40e-6)
    busy = Resource(CPU.name, 2, (resources[0].busy[0], 2.5))
    model = demand_model([points[0], fast], [busy, resources[1]])
    text = "\n".join(model.warnings)
    assert "N = 8: measured" in text and "above the model's bound" in text
    assert "utilization 1.25 > 1" in text
    # Timers: 100 us per request against 40 us of middleware CPU: 150 % apart, over 50 %.
    assert "timers give 100.0 us per request, its CPU 40.0 us" in text
    assert "differ by 150 % (more than 50 %)" in text


def test_no_cpu_measured_is_a_field_error() -> None:
    points, _ = _measured([1])
    with pytest.raises(AnalysisError) as err:
        demand_model(points, [])
    assert err.value.field == "resources"


def test_time_no_cpu_explains_is_warned_of() -> None:
    points, resources = _measured([1, 8])
    slow = DemandPoint(
        1, points[0].throughput_per_s, 10e-3, 100e-6, points[0].throughput_per_s * 40e-6
    )
    model = demand_model([slow, points[1]], resources, timer_tolerance=2.0)
    assert any(
        w.startswith("N = 1: measured response time 10000 us against 260 us of CPU demands")
        for w in model.warnings
    ), model.warnings


def test_a_delay_station_against_hand_mva() -> None:
    """One CPU (D = 100 us) and the measured round trip (Z_net = 50 us) as a delay station,
    think time 0, solved by hand with exact MVA:
    N = 1: R = 100 + 50 = 150 us, X = 1 / 150 us = 6,666.7/s, Q_cpu = X 100 us = 2/3;
    N = 2: R_cpu = 100 (1 + 2/3) = 166.7 us, R = 216.7 us, X = 2 / 216.7 us = 9,230.8/s."""
    x1, x2 = 1 / 150e-6, 2 / 216.6667e-6
    points = [DemandPoint(1, x1, 150e-6), DemandPoint(2, x2, 2 / x2)]
    cpu = Resource("CPU of h", 1, (x1 * 100e-6, x2 * 100e-6))
    model = demand_model(points, [cpu], network_delay_s=50e-6)
    assert model.network_delay_s == pytest.approx(50e-6)
    assert model.think_time_s == pytest.approx(0.0, abs=1e-9)
    assert [f.model_throughput_per_s for f in model.points] == pytest.approx([x1, x2], rel=1e-5)
    assert [f.model_response_time_s for f in model.points] == pytest.approx(
        [150e-6, 216.6667e-6], rel=1e-5
    )
    # The bound folds the delay into Z: min(N / (D + Z), 1 / D) = min(N / 150 us, 10,000/s).
    assert model.points[1].bound_throughput_per_s == pytest.approx(10_000.0)
    # Without the delay station the same points fit worse (the model misses 50 us a request).
    bare = demand_model(points, [cpu])
    assert bare.network_delay_s is None
    assert abs(bare.points[1].response_time_error_pct or 0) > 1.0


def test_a_role_link_is_a_station_whose_capacity_is_its_bound() -> None:
    """A client link bounding the system at 5,000 requests/s over 2 hosts: 2 servers, D = 400 us,
    so it saturates first and is named the bottleneck."""
    xs = (1_000.0, 4_000.0)
    link = link_resource("client", 2, 5_000.0, 201.0, xs)
    assert link.servers == 2 and link.kind == "link"
    points = [DemandPoint(1, xs[0], 1e-3), DemandPoint(8, xs[1], 2e-3)]
    cpu = Resource("CPU of h", 2, (0.1, 0.4))  # D = 100 us on 2 cores: 20,000/s
    model = demand_model(points, [cpu, link])
    assert model.stations[1].demand_s == pytest.approx(400e-6)
    assert model.points[-1].bound_throughput_per_s <= 5_000.0 * (1 + 1e-9)
    assert model.bottleneck is not None
    assert model.bottleneck.resource == link.name
    assert model.bottleneck.utilization == pytest.approx(4_000.0 / 5_000.0)
