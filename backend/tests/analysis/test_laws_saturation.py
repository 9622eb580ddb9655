"""Operational laws, saturation knees, response-time breakdown and relative differences."""

import pytest

from backend.analysis.breakdown import breakdown
from backend.analysis.comparison import keys_per_second, relative_differences
from backend.analysis.errors import AnalysisError
from backend.analysis.laws import (
    estimate_think_time,
    interactive_check,
    interactive_response_time,
    interactive_throughput,
    little_check,
    service_time_from_utilization,
    utilization,
)
from backend.analysis.saturation import Series, knee, saturation


def test_interactive_law_round_trip() -> None:
    x = interactive_throughput(200, 0.013, 0.0)
    assert x == pytest.approx(200 / 0.013)
    assert interactive_response_time(200, x, 0.0) == pytest.approx(0.013)
    check = interactive_check(200, 0.013, 0.0, 15_000.0)
    assert check.deviation_percent == pytest.approx(100 * (15_000 - x) / x)


def test_think_time_estimate_recovers_z() -> None:
    n = [10, 20, 40]
    r = [0.001, 0.0015, 0.003]
    x = [ni / (ri + 0.002) for ni, ri in zip(n, r, strict=True)]
    assert estimate_think_time(n, x, r) == pytest.approx(0.002)


def test_utilization_and_little() -> None:
    assert utilization(2940, 1 / 2940) == pytest.approx(1.0)
    assert utilization(2940, 1.094205e-3, 64) == pytest.approx(0.0503, abs=1e-4)
    assert service_time_from_utilization(0.5, 1000, 2) == pytest.approx(0.001)
    # Middleware: 15,400 ops/s with 3.5 ms queue time means ~53.9 requests queued.
    lc = little_check(53.0, 15_400, 3.5e-3)
    assert lc.predicted_length == pytest.approx(53.9)
    assert lc.deviation_percent == pytest.approx(100 * (53.0 - 53.9) / 53.9)


def test_laws_refuse_results_beyond_double_range() -> None:
    with pytest.raises(AnalysisError) as err:
        little_check(1.0, 1e300, 1e300)
    assert err.value.field == "time_s" and "not a finite number" in err.value.reason
    with pytest.raises(AnalysisError) as err:
        little_check(1e10, 1e-160, 1e-160)  # X T = 1e-320: the deviation overflows
    assert err.value.field == "time_s"
    with pytest.raises(AnalysisError) as err:
        interactive_check(1e10, 1e-320, 0.0, 1.0)
    assert err.value.field == "response_time_s"
    with pytest.raises(AnalysisError) as err:
        interactive_check(5e-324, 1e10, 0.0, 1.0)  # N / (R + Z) underflows to 0
    assert err.value.field == "clients"
    with pytest.raises(AnalysisError) as err:
        breakdown(1.0, 0.0, 1e308, 1e308)
    assert err.value.field == "middleware_response_us"


def test_knee_and_cheapest_configuration() -> None:
    # DOMAIN.md section 3 write throughput vs workers, as a function of clients.
    s8 = Series("8", 8, (6, 12, 24, 48), (4000, 6000, 6680, 6600))
    s32 = Series("32", 32, (6, 12, 24, 48), (4200, 8000, 10_000, 10_328))
    s64 = Series("64", 64, (6, 12, 24, 48), (4200, 8500, 10_900, 11_469))
    k = knee(s32)
    assert (k.knee_load, k.max_throughput_per_s) == (24, 10_328)
    res = saturation([s8, s32, s64], fraction=0.95)
    assert res.global_max_per_s == 11_469
    assert (res.best_label, res.best_load) == ("64", 24)  # 10,900 >= 95% of 11,469
    res90 = saturation([s8, s32, s64], fraction=0.90)
    assert (res90.best_label, res90.best_load) == ("32", 48)


def test_saturation_rejects_empty_series() -> None:
    with pytest.raises(AnalysisError):
        knee(Series("x", 1, (), ()))


def test_saturation_rejects_negative_throughputs() -> None:
    # 95 % of a negative maximum lies above it: no load reached it (an IndexError before).
    with pytest.raises(AnalysisError) as err:
        knee(Series("x", 1, (1, 2), (-1.5e16, -2e16)))
    assert err.value.field == "series" and "not negative" in err.value.reason


def test_breakdown_matches_domain_example() -> None:
    b = breakdown(
        client_response_us=7600, middleware_response_us=7000, queue_us=3500, server_us=3400
    )
    assert b.processing_us == pytest.approx(100)
    assert b.network_us == pytest.approx(600)
    assert sum(b.shares().values()) == pytest.approx(1.0)


def test_relative_differences_and_keys() -> None:
    rows = relative_differences({"R=1": 10_000.0, "R=3": 8_000.0}, base="R=1")
    assert [r.difference_percent for r in rows] == [0.0, -20.0]
    assert keys_per_second(1000, 9) == 9000
    with pytest.raises(AnalysisError) as err:
        relative_differences({"a": 0.0, "b": 1.0}, base="a")
    assert err.value.field == "base"
    # A base so near zero that a difference from it is no double: refused naming the base.
    with pytest.raises(AnalysisError) as err:
        relative_differences({"a": 1e-310, "b": 1e15}, base="a")
    assert err.value.field == "base" and "too close to zero" in err.value.reason
