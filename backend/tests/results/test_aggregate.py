"""The aggregation rules (backend/results/aggregate.py) on small hand-checked cases."""

import math

import numpy as np
import pytest
from scipy import stats as sps

from backend.analysis.errors import AnalysisError
from backend.domain.metrics import METRICS
from backend.results.aggregate import (
    RunValues,
    SourceSeries,
    Window,
    by_configuration,
    combine_instance_means,
    combine_per_second,
    combine_run,
    confidence_interval,
    run_windows,
    source_window,
    summarize,
)

NAN = float("nan")
T0 = 1.7e9


def _series(
    source: str, start: float, tp: list[float], rt: list[float], **kw: list[float]
) -> SourceSeries:
    return SourceSeries(source, start, {"throughput": tp, "response_time_us": rt, **kw})


def test_a_second_without_completions_never_poisons_the_window() -> None:
    s = _series("client:0", T0, [100.0, 0.0, 300.0, 100.0], [1000.0, NAN, 2000.0, 1000.0])
    w = source_window(s, 0, Window(0, 4))
    assert w is not None
    assert w.values["throughput_per_s"] == 125.0  # the idle second counts as 0 ops/s
    assert w.values["response_time_us"] == pytest.approx((1e5 + 6e5 + 1e5) / 500)
    assert w.weights["response_time_us"] == 500.0


def test_the_window_is_cut_on_the_clients_clock_with_middlewares_shifted() -> None:
    client = _series("client:0", T0, [10.0, 20.0, 30.0, 40.0], [1.0, 1.0, 1.0, 1.0])
    # Starts 1.4 s later: its element 0 is second 1 of the run.
    mw = _series("middleware:0", T0 + 1.4, [21.0, 31.0, 41.0], [5.0, 6.0, 7.0])
    ws = {w.source: w for w in run_windows([client, mw], Window(2, 4))}
    assert ws["client:0"].values["throughput_per_s"] == 35.0
    assert ws["middleware:0"].values["throughput_per_s"] == 36.0  # elements 1 and 2
    assert ws["middleware:0"].seconds == 2


def test_an_instance_covering_part_of_the_window_gives_its_mean_over_what_it_covers() -> None:
    short = _series("client:1", T0, [100.0, 100.0], [1.0, 1.0])
    w = source_window(short, 0, Window(1, 10))
    assert w is not None and w.seconds == 1 and w.values["throughput_per_s"] == 100.0
    assert source_window(short, 0, Window(2, 10)) is None


def test_instances_sum_rates_and_weight_times_by_completions() -> None:
    a = _series("client:0", T0, [100.0, 100.0], [1000.0, 1000.0], keys_per_s=[300.0, 300.0])
    b = _series("client:1", T0, [300.0, 300.0], [2000.0, 2000.0], keys_per_s=[900.0, 900.0])
    values = combine_run(run_windows([a, b], Window(0, 2)), METRICS)
    assert values["throughput_per_s"] == 400.0
    assert values["keys_per_s"] == 1200.0
    assert values["response_time_us"] == pytest.approx(1750.0)
    assert values["queue_time_us"] is None  # no instance reports it


def test_a_sum_is_none_when_a_covering_instance_lacks_the_metric() -> None:
    a = _series("client:0", T0, [100.0], [1.0], keys_per_s=[100.0])
    b = _series("client:1", T0, [100.0], [1.0])
    assert combine_run(run_windows([a, b], Window(0, 1)), ["keys_per_s"])["keys_per_s"] is None


def test_combined_means_of_instances_with_root_sum_square_stds() -> None:
    x, xs, r, rs = combine_instance_means(
        [1000.0, 3000.0], [30.0, 40.0], [500.0, 700.0], [10.0, 20.0]
    )
    assert x == 4000.0
    assert xs == pytest.approx(50.0)
    assert r == pytest.approx(0.25 * 500 + 0.75 * 700)
    assert rs == pytest.approx(math.sqrt((0.25 * 10) ** 2 + (0.75 * 20) ** 2))


def test_per_second_total_skips_undefined_times() -> None:
    a = _series("client:0", T0, [100.0, 0.0, 50.0], [1000.0, NAN, 1000.0])
    b = _series("client:1", T0 + 1.0, [100.0, 150.0], [2000.0, 3000.0])
    c = combine_per_second([a, b], T0)
    assert c.time_s == [0.0, 1.0, 2.0]
    assert c.throughput == [100.0, 100.0, 200.0]
    assert c.response_time_us == [1000.0, 2000.0, pytest.approx(2500.0)]


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
    with pytest.raises(AnalysisError) as err:
        confidence_interval([3.0])
    assert err.value.field == "values"
    with pytest.raises(AnalysisError):
        summarize([1.0, NAN])


def test_repetitions_that_overflow_are_refused_not_infinite() -> None:
    with pytest.raises(AnalysisError) as err:
        summarize([1e308, 1e308])
    assert err.value.field == "values" and "not a finite number" in err.value.reason
    # 0.5 + level / 2 rounds to 1.0: the t quantile is infinite.
    with pytest.raises(AnalysisError) as err:
        confidence_interval([1.0, 2.0], 1 - 2**-53)
    assert err.value.field == "level"


def test_repetitions_group_by_configuration_in_repetition_order() -> None:
    runs = [
        RunValues(3, 7, 1, {"throughput_per_s": 20.0}),
        RunValues(2, 7, 0, {"throughput_per_s": 10.0}),
        RunValues(4, 8, 0, {"throughput_per_s": None}),
    ]
    assert by_configuration(runs, "throughput_per_s") == {7: [10.0, 20.0]}


def test_a_window_must_be_non_empty() -> None:
    with pytest.raises(AnalysisError) as err:
        Window(5, 5)
    assert err.value.field == "window_end_s"
