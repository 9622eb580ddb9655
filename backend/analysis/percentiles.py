"""Percentiles from raw samples and from bucketed histograms; histogram merge and re-binning."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import numpy as np
import numpy.typing as npt

from backend.analysis.errors import AnalysisError, require

FloatArray = npt.NDArray[np.float64]


@dataclass(frozen=True)
class Histogram:
    """Buckets (upper_bounds_us[i-1], upper_bounds_us[i]] (the first starts at 0) + overflow.

    This is the middleware's layout (100 us buckets) and what memtier's CDF converts to.
    """

    upper_bounds_us: FloatArray
    counts: FloatArray
    overflow: float = 0.0

    @property
    def total(self) -> float:
        """All samples, overflow included."""
        return float(self.counts.sum() + self.overflow)


@dataclass(frozen=True)
class HistogramPercentile:
    """A percentile read off a histogram.

    bound says when the histogram cannot resolve it: "above" (in the overflow bucket: value_us
    is a lower bound, shown "≥ value") or "below" (in the first bucket, which starts at 0:
    value_us is its upper edge, shown "< value", never digits interpolated from 0).
    """

    q: float
    value_us: float
    in_overflow: bool
    bound: Literal["below", "above"] | None = None


def make_histogram(
    upper_bounds_us: npt.ArrayLike, counts: npt.ArrayLike, overflow: float = 0.0
) -> Histogram:
    """Validate and build a histogram (bounds strictly increasing, counts >= 0)."""
    ub = np.asarray(upper_bounds_us, dtype=np.float64)
    c = np.asarray(counts, dtype=np.float64)
    require(ub.ndim == 1 and ub.size > 0, "upper_bounds_us", "needs at least one bucket")
    require(ub.shape == c.shape, "counts", "needs one count per bucket")
    require(bool(ub[0] > 0) and bool(np.all(np.diff(ub) > 0)), "upper_bounds_us", "must increase")
    require(bool(np.all(c >= 0)) and overflow >= 0, "counts", "must be non-negative")
    return Histogram(ub, c, float(overflow))


def _check_q(qs: tuple[float, ...]) -> None:
    require(len(qs) > 0, "percentiles", "ask for at least one percentile")
    for q in qs:
        if not 0.0 <= q <= 100.0:
            raise AnalysisError("percentiles", f"each must lie in [0, 100], got {q}")


def percentiles_from_samples(samples: npt.ArrayLike, qs: tuple[float, ...]) -> FloatArray:
    """The one percentile rule (see percentiles_from_histogram) over raw samples, each sample its
    own bucket: the sorted sample at rank max(1, round(q / 100 x n)), a value that occurred,
    never one interpolated between two."""
    _check_q(qs)
    arr = np.sort(np.asarray(samples, dtype=np.float64).ravel())
    require(arr.size > 0, "samples", "no samples")
    ranks = [int(percentile_rank(q, arr.size)) for q in qs]
    return np.asarray([arr[r - 1] for r in ranks], dtype=np.float64)


def percentile_rank(q: float, n: float) -> float:
    """Rank (1-based) of the q-th percentile among n values: max(1, round half up of q/100 x n),
    HdrHistogram's rank, the one used by the rule below."""
    return max(1.0, float(int(min(q, 100.0) / 100.0 * n + 0.5)))


def percentiles_from_histogram(hist: Histogram, qs: tuple[float, ...]) -> list[HistogramPercentile]:
    """The one percentile rule of mcscope, HdrHistogram's (and so memtier's own JSON values):
    the q-th percentile is the upper edge of the first bucket whose cumulative count reaches
    the rank max(1, round(q / 100 x total)), i.e. the highest value the bucket can hold. It is
    never below the true percentile and at most one bucket width above it (3 % for the
    middleware's log-linear buckets). In the first bucket, which starts at 0, it is a bound
    "< edge"; past the last edge (the overflow bucket) a bound "≥ edge".
    """
    _check_q(qs)
    total = hist.total
    require(total > 0, "counts", "the histogram is empty")
    cum = np.cumsum(hist.counts)
    out = []
    for q in qs:
        rank = percentile_rank(q, total)
        if rank > cum[-1] + 1e-9 * total:
            out.append(HistogramPercentile(q, float(hist.upper_bounds_us[-1]), True, "above"))
            continue
        i = int(np.searchsorted(cum, rank - 1e-9 * total, side="left"))
        bound: Literal["below"] | None = "below" if i == 0 else None
        out.append(HistogramPercentile(q, float(hist.upper_bounds_us[i]), False, bound))
    return out


def rebin(hist: Histogram, new_upper_bounds_us: npt.ArrayLike) -> Histogram:
    """Re-bin assuming samples spread uniformly inside each bucket (counts are conserved).

    Mass above the last new bound goes to the overflow bucket.
    """
    new = make_histogram(new_upper_bounds_us, np.zeros(np.size(new_upper_bounds_us)))
    edges = np.concatenate(([0.0], hist.upper_bounds_us))
    cdf = np.concatenate(([0.0], np.cumsum(hist.counts)))
    # The cumulative count is piecewise linear in latency: sample it at the new edges.
    at_new = np.interp(new.upper_bounds_us, edges, cdf)
    counts = np.diff(np.concatenate(([0.0], at_new)))
    overflow = hist.overflow + float(cdf[-1] - at_new[-1])
    return Histogram(new.upper_bounds_us, counts, overflow)


def merge(hists: list[Histogram]) -> Histogram:
    """Sum histograms; different layouts are first re-binned onto the union of their bounds."""
    require(len(hists) > 0, "histograms", "nothing to merge")
    first = hists[0].upper_bounds_us
    if all(
        h.upper_bounds_us.shape == first.shape and np.array_equal(h.upper_bounds_us, first)
        for h in hists
    ):
        return Histogram(
            first, np.sum([h.counts for h in hists], axis=0), sum(h.overflow for h in hists)
        )
    union = np.unique(np.concatenate([h.upper_bounds_us for h in hists]))
    parts = [rebin(h, union) for h in hists]
    return Histogram(
        union, np.sum([p.counts for p in parts], axis=0), sum(p.overflow for p in parts)
    )


def histogram_from_cdf(
    latencies_us: npt.ArrayLike, cumulative_percent: npt.ArrayLike, count: int
) -> Histogram:
    """memtier's "Request Latency Distribution" (<= latency, cumulative %) as bucket counts."""
    lat = np.asarray(latencies_us, dtype=np.float64)
    pct = np.asarray(cumulative_percent, dtype=np.float64)
    require(lat.size > 0 and lat.shape == pct.shape, "cumulative_percent", "one per latency")
    require(count > 0, "count", "must be positive")
    require(bool(np.all(np.diff(pct) >= 0)), "cumulative_percent", "must not decrease")
    # memtier repeats a latency for several percent steps: keep the last (largest) per value.
    bounds, last = np.unique(lat[::-1], return_index=True)
    cum_pct = pct[::-1][last]
    keep = bounds > 0
    require(bool(keep.any()), "latencies_us", "no positive latency")
    ub = bounds[keep]
    cum_counts = np.concatenate(([pct[lat <= 0].max(initial=0.0)], cum_pct[keep])) * count / 100.0
    counts = np.diff(cum_counts)
    counts[0] += cum_counts[0]  # samples at 0 us fall in the first bucket
    return Histogram(ub, counts, max(0.0, count - float(cum_counts[-1])))
