"""Percentiles from samples and histograms; merge and re-binning conserve counts."""

import json
from pathlib import Path

import numpy as np
import pytest

from backend.analysis.errors import AnalysisError
from backend.analysis.percentiles import (
    histogram_from_cdf,
    make_histogram,
    merge,
    percentiles_from_histogram,
    percentiles_from_samples,
    rebin,
)
from worker.parsers import parse_memtier_json

FIXTURES = Path(__file__).resolve().parents[3] / "worker" / "tests" / "fixtures"


def test_sample_percentiles_are_the_sample_at_the_rule_rank() -> None:
    """Rank max(1, round half up(q/100 x n)): 25 % of 5 is rank 1, 30 % rank 2 (1.5 rounds up),
    0 % rank 1; never a value between two samples (numpy's linear rule gave 2.0 for p25)."""
    got = percentiles_from_samples([5, 3, 1, 4, 2], (50.0, 25.0, 30.0, 0.0, 100.0))
    np.testing.assert_array_equal(got, [3, 1, 2, 1, 5])


def test_sample_and_histogram_percentiles_are_one_rule() -> None:
    """Integer samples in unit buckets (i - 1, i]: the histogram's upper edge is the sample."""
    rng = np.random.default_rng(11)
    samples = rng.integers(1, 500, 3_001).astype(float)
    bounds = np.arange(1, 500, dtype=float)
    counts = np.bincount(samples.astype(int), minlength=500)[1:]
    qs = (1.0, 10.0, 25.0, 50.0, 90.0, 99.0, 99.9, 100.0)
    hist = [p.value_us for p in percentiles_from_histogram(make_histogram(bounds, counts), qs)]
    np.testing.assert_array_equal(percentiles_from_samples(samples, qs), hist)


def test_histogram_percentile_is_the_upper_edge_of_the_rank_bucket() -> None:
    """HdrHistogram's rule: the bucket holding rank round(q/100 x n), read at its upper edge."""
    h = make_histogram([100, 200, 300], [10, 20, 10])
    p = percentiles_from_histogram(h, (25.0, 30.0, 50.0, 75.0, 80.0, 100.0))
    assert [x.value_us for x in p] == [100.0, 200.0, 200.0, 200.0, 300.0, 300.0]
    assert [x.bound for x in p] == ["below", None, None, None, None, None]
    assert not any(x.in_overflow for x in p)


def test_histogram_zeroth_percentile_skips_empty_buckets() -> None:
    h = make_histogram([100, 200, 300], [0, 4, 4])
    p0 = percentiles_from_histogram(h, (0.0,))[0]
    assert (p0.value_us, p0.bound) == (200.0, None)


def test_histogram_percentile_in_overflow_is_flagged() -> None:
    h = make_histogram([100, 200], [5, 3], overflow=2)
    p = percentiles_from_histogram(h, (99.0,))[0]
    assert p.in_overflow and p.value_us == 200.0


def test_histogram_percentiles_approach_sample_percentiles() -> None:
    rng = np.random.default_rng(3)
    samples = rng.exponential(800.0, 200_000)
    bounds = np.arange(100, 20_001, 100, dtype=float)
    counts, _ = np.histogram(samples, bins=np.concatenate(([0.0], bounds)))
    h = make_histogram(bounds, counts, overflow=float((samples > bounds[-1]).sum()))
    got = [p.value_us for p in percentiles_from_histogram(h, (50.0, 90.0, 99.0))]
    want = percentiles_from_samples(samples, (50.0, 90.0, 99.0))
    np.testing.assert_allclose(got, want, atol=100.0)  # within one 100 us bucket


def test_rebin_and_merge_conserve_counts() -> None:
    a = make_histogram([100, 200, 300, 400], [1, 2, 3, 4], overflow=1)
    coarse = rebin(a, [200, 400])
    np.testing.assert_allclose(coarse.counts, [3, 7])
    assert coarse.overflow == 1
    b = make_histogram([150, 400], [6, 2])
    m = merge([a, b])
    assert m.total == pytest.approx(a.total + b.total)
    np.testing.assert_allclose(m.upper_bounds_us, [100, 150, 200, 300, 400])
    # Uniform within a bucket: b's (0, 150] splits 4 + 2 at 100, its (150, 400] spreads
    # 2 over 250 us (0.4, 0.8, 0.8); a's (100, 200] splits 1 + 1 at 150.
    np.testing.assert_allclose(m.counts, [1 + 4, 1 + 2, 1 + 0.4, 3 + 0.8, 4 + 0.8], atol=1e-12)
    short = rebin(a, [250])
    assert short.overflow == pytest.approx(1 + 1.5 + 4)


def test_histogram_from_memtier_cdf_fixture() -> None:
    data = json.loads((FIXTURES / "memtier_ratio0-1_c2_t1_d128_5s.json").read_text())
    gets = data["ALL STATS"]["Gets"]
    lines = (FIXTURES / "memtier_ratio0-1_c2_t1_d128_5s.stdout.txt").read_text().splitlines()
    points = [ln.split() for ln in lines if ln.startswith("GET ")]
    lat_us = [float(p[1]) * 1000 for p in points]
    pct = [float(p[2]) for p in points]
    h = histogram_from_cdf(lat_us, pct, gets["Count"])
    assert h.total == pytest.approx(gets["Count"])
    p50 = percentiles_from_histogram(h, (50.0,))[0].value_us
    # memtier reports p50 = 0.031 ms; the bucket ending at 31 us holds the median.
    assert p50 <= 31.0 + 1e-9 and p50 > 23.0


def test_histogram_validation() -> None:
    with pytest.raises(AnalysisError) as err:
        make_histogram([100, 50], [1, 1])
    assert err.value.field == "upper_bounds_us"
    with pytest.raises(AnalysisError):
        percentiles_from_histogram(make_histogram([1.0], [0.0]), (50.0,))
    with pytest.raises(AnalysisError):
        percentiles_from_samples([], (50.0,))


def test_percentile_inside_the_first_bucket_is_a_bound_not_invented_digits() -> None:
    """Queue times all under 100 us: p25/p50/p75 are "< 100 us", not 25.1/50.2/75.3."""
    hist = make_histogram([100.0, 200.0, 300.0], [900.0, 80.0, 20.0])
    p = percentiles_from_histogram(hist, (25.0, 50.0, 75.0, 95.0))
    assert [(x.value_us, x.bound) for x in p[:3]] == [(100.0, "below")] * 3
    assert p[3].bound is None and 100.0 < p[3].value_us <= 200.0


@pytest.mark.parametrize("path", sorted(FIXTURES.glob("memtier*.json")), ids=lambda p: p.stem)
def test_the_rule_gives_memtiers_own_json_percentiles(path: Path) -> None:
    """Every memtier fixture: each type's stored histogram (its HDR blob, as the worker stores
    it) read with the one rule gives exactly the percentiles memtier printed in its JSON."""
    result = parse_memtier_json(path.read_text())
    checked = 0
    for section in result.sections.values():
        for stats in section.types.values():
            if stats.histogram is None or not stats.percentiles_us:
                continue
            buckets = stats.histogram.buckets(contiguous=True)
            hist = make_histogram([b for b, _ in buckets], [c for _, c in buckets])
            qs = tuple(stats.percentiles_us)
            got = [p.value_us for p in percentiles_from_histogram(hist, qs)]
            # JSON values are ms with 3 decimals: whole microseconds.
            assert got == pytest.approx([stats.percentiles_us[q] for q in qs], abs=0.5)
            checked += 1
    assert checked > 0
