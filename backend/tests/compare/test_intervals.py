"""Welch interval, Fieller relative interval, pooling and bands against textbook and scipy."""

import math

import numpy as np
import pytest
from scipy import stats

from backend.analysis.errors import AnalysisError
from backend.compare.intervals import Sample, band, pool, welch_difference

# Jain, The Art of Computer Systems Performance Analysis, Example 13.7 (unpaired observations).
JAIN_A = [5.36, 16.57, 0.62, 1.41, 0.64, 7.26]
JAIN_B = [19.12, 3.52, 3.38, 2.50, 3.60, 1.74]

# R's t.test(ts1, ts2) (Welch by default): t = -1.8325, df = 17.9, p-value = 0.08356,
# 95 percent confidence interval -2.1469104 0.1469104.
R_TS1 = [11.0, 9, 10, 11, 10, 12, 9, 11, 12, 9]
R_TS2 = [11.0, 13, 10, 13, 12, 9, 11, 12, 12, 11]


def test_jain_example_means_and_standard_error() -> None:
    d = welch_difference(Sample.of(JAIN_B), Sample.of(JAIN_A), level=0.90)
    # Jain: mean difference 0.33, standard deviation of the mean difference 3.698.
    assert d.difference == pytest.approx(-0.33, abs=0.005)
    assert d.low is not None and d.high is not None
    se = (d.high - d.low) / 2 / stats.t.ppf(0.95, d.dof)
    assert se == pytest.approx(3.698, abs=5e-4)
    assert d.low < 0 < d.high and d.verdict == "not_distinguishable"


def test_r_t_test_output() -> None:
    # t.test(x, y) reports mean(x) - mean(y): ts1 is the "other", ts2 the base.
    d = welch_difference(Sample.of(R_TS2), Sample.of(R_TS1))
    assert d.difference == pytest.approx(-1.0)
    assert d.dof == pytest.approx(17.9, abs=0.05)
    assert d.low == pytest.approx(-2.1469104, abs=1e-6)
    assert d.high == pytest.approx(0.1469104, abs=1e-6)
    assert d.verdict == "not_distinguishable"  # p = 0.084 > 0.05
    at_90 = welch_difference(Sample.of(R_TS2), Sample.of(R_TS1), level=0.90)
    assert at_90.verdict == "significant" and at_90.high is not None and at_90.high < 0


@pytest.mark.parametrize("level", [0.90, 0.95, 0.99])
@pytest.mark.parametrize("pair", [(JAIN_A, JAIN_B), (R_TS1, R_TS2), ([1.0, 2.0], [5.0, 9.0, 7.5])])
def test_interval_matches_scipy(pair: tuple[list[float], list[float]], level: float) -> None:
    base, other = pair
    d = welch_difference(Sample.of(base), Sample.of(other), level)
    ref = stats.ttest_ind(other, base, equal_var=False)
    ci = ref.confidence_interval(level)
    assert [d.low, d.high] == pytest.approx([ci.low, ci.high])
    assert d.dof == pytest.approx(ref.df)
    assert (d.verdict == "significant") == (ref.pvalue < 1 - level)


def test_relative_difference_and_fieller_interval() -> None:
    base, other = Sample.of([100.0, 102.0, 98.0]), Sample.of([150.0, 155.0, 145.0])
    d = welch_difference(base, other)
    assert d.relative_percent == pytest.approx(50.0)
    assert d.relative_low is not None and d.relative_high is not None
    assert d.relative_low < 50.0 < d.relative_high
    # The endpoints r solve (y - r x)^2 = t^2 (vy + r^2 vx): the ratio's t statistic is t there.
    t = stats.t.ppf(0.975, d.dof)
    vx, vy = 2.0**2 / 3, 5.0**2 / 3
    for rel in (d.relative_low, d.relative_high):
        r = 1 + rel / 100
        assert (150.0 - r * 100.0) ** 2 == pytest.approx(t**2 * (vy + r**2 * vx))
    # Wider than treating the base mean as exact, since the base is uncertain too.
    assert d.low is not None and d.high is not None
    assert d.relative_high - d.relative_low > 100 * (d.high - d.low) / 100.0


def test_relative_interval_unbounded_when_base_is_noise() -> None:
    d = welch_difference(Sample.of([-1.0, 1.0, 0.5]), Sample.of([5.0, 6.0, 7.0]))
    assert d.relative_percent is not None
    assert (d.relative_low, d.relative_high) == (None, None)


def test_tiny_difference_is_not_distinguishable() -> None:
    base = Sample.of([1000.0, 1010.0, 990.0])
    d = welch_difference(base, Sample.of([1001.0, 1011.0, 991.0]))
    assert d.verdict == "not_distinguishable" and d.relative_percent == pytest.approx(0.1)


def test_insufficient_repetitions_or_spread() -> None:
    one = welch_difference(Sample.of([1.0]), Sample.of([2.0, 3.0]))
    assert one.verdict == "insufficient" and one.low is None and one.difference == 1.5
    flat = welch_difference(Sample.of([2.0, 2.0]), Sample.of([3.0, 3.0]))
    assert flat.verdict == "insufficient" and flat.relative_percent == pytest.approx(50.0)
    zero = welch_difference(Sample(2, 0.0, 1.0), Sample(2, 1.0, 1.0))
    assert zero.relative_percent is None and zero.verdict == "not_distinguishable"


def test_level_is_checked() -> None:
    with pytest.raises(AnalysisError) as e:
        welch_difference(Sample.of([1.0, 2.0]), Sample.of([1.0, 2.0]), level=1.0)
    assert e.value.field == "level"


def test_pool_equals_concatenated_repetitions() -> None:
    groups = [[1.0, 2.0, 4.0], [10.0], [3.0, 3.5]]
    pooled = pool(Sample.of(g) for g in groups)
    flat = [v for g in groups for v in g]
    assert pooled.n == 6
    assert pooled.mean == pytest.approx(np.mean(flat))
    assert pooled.std == pytest.approx(np.std(flat, ddof=1))
    assert pool([Sample.of([7.0])]) == Sample(1, 7.0, None)


def test_bands() -> None:
    s = Sample.of([10.0, 12.0, 14.0, 16.0])
    sd = float(np.std([10, 12, 14, 16], ddof=1))
    b = band(s, "std")
    assert [b.low, b.high] == pytest.approx([13 - sd, 13 + sd])
    b = band(s, "se")
    assert [b.low, b.high] == pytest.approx([13 - sd / 2, 13 + sd / 2])
    lo, hi = stats.t.interval(0.95, 3, loc=13, scale=sd / math.sqrt(4))
    b = band(s, "ci")
    assert [b.low, b.high] == pytest.approx([lo, hi])
    single = band(Sample.of([5.0]), "ci")
    assert (single.n, single.mean, single.low, single.high) == (1, 5.0, None, None)
