"""Stable window, instance and repetition aggregation, t confidence intervals."""

import math

import numpy as np
import pytest
from scipy import stats as sps

from backend.analysis.errors import AnalysisError
from backend.analysis.stats import (
    aggregate_aligned,
    aggregate_runs,
    aggregate_unaligned,
    confidence_interval,
    cut_window,
    summarize,
    summarize_groups,
)


def test_cut_window_drops_warmup_and_cooldown() -> None:
    np.testing.assert_array_equal(cut_window(np.arange(10.0), 2, 3), [2, 3, 4, 5, 6])


def test_cut_window_rejects_windows_that_leave_nothing() -> None:
    with pytest.raises(AnalysisError) as err:
        cut_window([1.0, 2.0, 3.0], 2, 1)
    assert err.value.field == "warmup_s"
    assert "no samples" in err.value.reason


def test_aligned_instances_sum_throughput_and_weight_response_time() -> None:
    x = np.array([[100.0, 100.0], [300.0, 300.0]])
    r = np.array([[1000.0, 1000.0], [2000.0, 2000.0]])
    agg = aggregate_aligned(x, r)
    assert agg.throughput_per_s == 400.0
    assert agg.response_time_us == pytest.approx((100 * 1000 + 300 * 2000) / 400)
    assert agg.throughput_std_per_s == 0.0


def test_unaligned_instances_combine_stds_by_root_sum_of_squares() -> None:
    agg = aggregate_unaligned([1000.0, 3000.0], [30.0, 40.0], [500.0, 700.0], [10.0, 20.0])
    assert agg.throughput_per_s == 4000.0
    assert agg.throughput_std_per_s == pytest.approx(50.0)
    assert agg.response_time_us == pytest.approx(0.25 * 500 + 0.75 * 700)
    assert agg.response_time_std_us == pytest.approx(math.sqrt((0.25 * 10) ** 2 + (0.75 * 20) ** 2))


def test_repetitions_mean_std_and_t_interval() -> None:
    values = [10.0, 12.0, 11.0, 13.0]
    s = summarize(values)
    assert (s.n, s.mean) == (4, 11.5)
    assert s.std == pytest.approx(np.std(values, ddof=1))
    ci = confidence_interval(values, 0.95)
    low, high = sps.t.interval(0.95, 3, loc=11.5, scale=sps.sem(values))
    assert ci.low == pytest.approx(low)
    assert ci.high == pytest.approx(high)
    assert summarize([5.0]).std is None


def test_confidence_interval_needs_two_repetitions() -> None:
    with pytest.raises(AnalysisError) as err:
        confidence_interval([3.0])
    assert err.value.field == "values"
    with pytest.raises(AnalysisError):
        summarize([])
    with pytest.raises(AnalysisError):
        summarize([1.0, float("nan")])


def test_aggregate_runs_matches_per_run_loop() -> None:
    rng = np.random.default_rng(7)
    x = rng.uniform(100, 200, (5, 3, 30))
    r = rng.uniform(500, 900, (5, 3, 30))
    agg = aggregate_runs(x, r, 5, 5)
    for i in range(5):
        one = aggregate_aligned(x[i, :, 5:25], r[i, :, 5:25])
        assert agg.throughput_per_s[i] == pytest.approx(one.throughput_per_s)
        assert agg.response_time_us[i] == pytest.approx(one.response_time_us)
        assert agg.throughput_std_per_s[i] == pytest.approx(one.throughput_std_per_s)


def test_summarize_groups() -> None:
    keys, means, stds, counts = summarize_groups([1.0, 3.0, 10.0, 5.0], [2, 2, 7, 9])
    np.testing.assert_array_equal(keys, [2, 7, 9])
    np.testing.assert_allclose(means, [2.0, 10.0, 5.0])
    np.testing.assert_allclose(stds, [math.sqrt(2.0), 0.0, 0.0])
    np.testing.assert_array_equal(counts, [2, 1, 1])
