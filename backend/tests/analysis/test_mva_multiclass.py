"""Exact multi-class MVA against the single-class solver and hand-computed cases."""

import numpy as np
import pytest

from backend.analysis.errors import AnalysisError
from backend.analysis.mva.exact import solve_mva
from backend.analysis.mva.multiclass import ClassSpec, solve_multiclass
from backend.analysis.mva.network import Station, StationKind

STATIONS = (
    Station("cpu", StationKind.QUEUE, 1.0),
    Station("disk", StationKind.QUEUE, 1.0),
    Station("lan", StationKind.DELAY, 1.0),
)


def test_one_class_equals_single_class_solver() -> None:
    demands = (0.02, 0.05, 0.01)
    stations = tuple(Station(s.name, s.kind, d) for s, d in zip(STATIONS, demands, strict=True))
    single = solve_mva(stations, 40, 0.3)
    multi = solve_multiclass(STATIONS, (ClassSpec("a", 40, 0.3, demands),))
    assert multi.throughput_per_s[0] == pytest.approx(single.throughput_per_s[-1], rel=1e-12)
    q_single = [c.queue_length[-1] for c in single.stations]
    np.testing.assert_allclose(multi.queue_length[0], q_single, rtol=1e-12)


def test_identical_classes_aggregate_to_one_class() -> None:
    demands = (0.02, 0.05, 0.01)
    multi = solve_multiclass(
        STATIONS, (ClassSpec("a", 7, 0.1, demands), ClassSpec("b", 5, 0.1, demands))
    )
    stations = tuple(Station(s.name, s.kind, d) for s, d in zip(STATIONS, demands, strict=True))
    single = solve_mva(stations, 12, 0.1)
    total_x = float(multi.throughput_per_s.sum())
    assert total_x == pytest.approx(float(single.throughput_per_s[-1]), rel=1e-12)
    # Identical classes share throughput in proportion to their populations.
    assert multi.throughput_per_s[0] / multi.throughput_per_s[1] == pytest.approx(7 / 5)


def test_two_classes_one_job_each_by_hand() -> None:
    # One queue, class a demand 1, class b demand 2, no think time, one job each.
    st = (Station("q", StationKind.QUEUE, 1.0),)
    res = solve_multiclass(st, (ClassSpec("a", 1, 0.0, (1.0,)), ClassSpec("b", 1, 0.0, (2.0,))))
    # R_a = 1 (1 + Q_b(0,1)) = 1 (1 + 1) = 2; R_b = 2 (1 + Q_a(1,0)) = 4.
    np.testing.assert_allclose(res.response_time_s, [2.0, 4.0])
    np.testing.assert_allclose(res.throughput_per_s, [0.5, 0.25])


def test_multiclass_conserves_each_class_population() -> None:
    classes = (
        ClassSpec("a", 30, 0.2, (0.01, 0.03, 0.002)),
        ClassSpec("b", 20, 0.05, (0.02, 0.001, 0.004)),
    )
    res = solve_multiclass(STATIONS, classes)
    per_class = res.queue_length.sum(axis=1) + res.throughput_per_s * np.array([0.2, 0.05])
    np.testing.assert_allclose(per_class, [30, 20], rtol=1e-12)
    assert float(res.utilization[:, 0].sum()) < 1.0


POOL = (
    Station("delay", StationKind.DELAY, 1.0),
    Station("net", StationKind.QUEUE, 1.0),
    Station("pool", StationKind.MULTI, 1.0, servers=16),
)
POOL_DEMANDS = (0.0003, 0.0003, 0.004)


def _single(servers: int) -> tuple[Station, ...]:
    return tuple(
        Station(s.name, s.kind, d, servers=servers if s.kind is StationKind.MULTI else 1)
        for s, d in zip(POOL, POOL_DEMANDS, strict=True)
    )


@pytest.mark.parametrize("n", [1, 5, 40, 300])
def test_one_class_with_pool_equals_stable_single_class(n: int) -> None:
    multi = solve_multiclass(POOL, (ClassSpec("a", n, 0.01, POOL_DEMANDS),))
    single = solve_mva(_single(16), n, 0.01)
    assert multi.throughput_per_s[0] == pytest.approx(float(single.throughput_per_s[-1]), rel=1e-10)
    pool = single.stations[2]
    assert pool.prob_busy is not None
    assert multi.prob_busy[2] == pytest.approx(float(pool.prob_busy[-1]), rel=1e-10)
    assert multi.queue_length[0, 2] == pytest.approx(float(pool.queue_length[-1]), rel=1e-10)


@pytest.mark.parametrize("servers", [16, 64])
def test_identical_classes_with_pool_stay_exact_at_high_population(servers: int) -> None:
    # 2 x 150 jobs: far past where the textbook p(0) = 1 - sum goes negative at m = 16.
    pool = tuple(
        Station(s.name, s.kind, 1.0, servers=servers if s.kind is StationKind.MULTI else 1)
        for s in POOL
    )
    classes = (ClassSpec("get", 150, 0.01, POOL_DEMANDS), ClassSpec("set", 150, 0.01, POOL_DEMANDS))
    multi = solve_multiclass(pool, classes)
    single = solve_mva(_single(servers), 300, 0.01)
    assert float(multi.throughput_per_s.sum()) == pytest.approx(
        float(single.throughput_per_s[-1]), rel=1e-9
    )
    q_pool = float(multi.queue_length[:, 2].sum())
    assert q_pool == pytest.approx(float(single.stations[2].queue_length[-1]), rel=1e-9)
    assert multi.prob_busy[0] is None
    assert all(0.0 <= (b or 0.0) <= 1.0 for b in multi.prob_busy)


def test_multiclass_solves_more_than_three_multi_server_stations() -> None:
    # Six pools (past the old cap of 3): one class must equal the single-class solver.
    pools = tuple(Station(f"p{i}", StationKind.MULTI, 1.0, servers=2 + i) for i in range(6))
    demands = (0.004, 0.006, 0.003, 0.009, 0.002, 0.005)
    multi = solve_multiclass(pools, (ClassSpec("a", 30, 0.01, demands),))
    single = solve_mva(
        tuple(
            Station(s.name, s.kind, d, servers=s.servers)
            for s, d in zip(pools, demands, strict=True)
        ),
        30,
        0.01,
    )
    assert multi.throughput_per_s[0] == pytest.approx(float(single.throughput_per_s[-1]), rel=1e-9)
    for k, curve in enumerate(single.stations):
        assert multi.queue_length[0, k] == pytest.approx(float(curve.queue_length[-1]), rel=1e-9)


def test_multiclass_refuses_exact_work_beyond_budget_and_names_the_way_out() -> None:
    st = tuple(Station(f"p{i}", StationKind.MULTI, 1.0, servers=2) for i in range(20))
    classes = (ClassSpec("a", 40, 0.0, (1.0,) * 20), ClassSpec("b", 40, 0.0, (1.0,) * 20))
    with pytest.raises(AnalysisError) as err:
        solve_multiclass(st, classes)
    assert err.value.field == "stations"
    assert "approximate" in err.value.reason


def test_multiclass_rejects_wrong_demand_count() -> None:
    with pytest.raises(AnalysisError) as err:
        solve_multiclass(STATIONS, (ClassSpec("a", 2, 0.0, (1.0,)),))
    assert err.value.field == "classes[0].demands_s"
