"""The middleware's log-linear histogram layout, as middleware-cpp/src/histogram.hpp defines it.

HdrHistogram's layout over integer nanoseconds with `sub_buckets` (a power of two, 64 in the
middleware) sub-buckets: values below `sub_buckets` ns have a bucket per ns; above, each power
of two [2^k, 2^(k+1)) is cut into sub_buckets / 2 equal buckets, so a bucket is at most
2 / sub_buckets (3.1 %) of its lower edge wide. Bucket `bucket_count` is the overflow bucket.
The file's header line names the layout (window_histograms.jsonl); this module turns it into
bucket edges in us, the unit every stored histogram uses.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np
import numpy.typing as npt

from backend.analysis.percentiles import Histogram, make_histogram


@dataclass(frozen=True)
class LogLinearLayout:
    """Bucket edges of a log-linear layout (integer ns values, bucket i = [lower, upper))."""

    sub_buckets: int
    bucket_count: int

    def __post_init__(self) -> None:
        sb = self.sub_buckets
        if sb < 2 or sb & (sb - 1) or self.bucket_count < sb:
            raise ValueError(f"not a log-linear layout: {sb} sub-buckets, {self.bucket_count}")

    def lower_ns(self, i: int) -> int:
        """Smallest value of bucket i."""
        half = self.sub_buckets // 2
        if i < self.sub_buckets:
            return i
        shift = i // half - 1
        return (i - shift * half) << shift

    def index(self, ns: int) -> int:
        """Bucket of the integer value `ns` (bucket_count: the overflow bucket)."""
        if ns < self.sub_buckets:
            return max(ns, 0)
        shift = ns.bit_length() - self.sub_buckets.bit_length() + 1
        return min((ns >> shift) + shift * (self.sub_buckets // 2), self.bucket_count)

    def upper_ns(self, i: int) -> int:
        """One past the largest value of bucket i."""
        if i < self.sub_buckets:
            return i + 1
        return self.lower_ns(i) + (1 << (i // (self.sub_buckets // 2) - 1))

    @cached_property
    def upper_bounds_us(self) -> npt.NDArray[np.float64]:
        """Upper edges of the finite buckets in us (the overflow bucket has none).

        Values are integer ns, so bucket [lower, upper) ns equals (lower - 1, upper - 1] ns;
        the us edges are upper / 1000 (1 ns off, immaterial at the 3 % resolution).
        """
        return np.array([self.upper_ns(i) for i in range(self.bucket_count)]) / 1000.0


def log_linear_histogram(layout: LogLinearLayout, counts: npt.ArrayLike) -> Histogram:
    """Counts of every bucket of `layout` (overflow last) as a Histogram over the used range.

    Empty buckets below the first used one become one empty bucket from 0 (the first used
    bucket keeps its true lower edge), empty ones above the last are dropped.
    """
    c = np.asarray(counts, dtype=np.float64)
    finite = np.flatnonzero(c[:-1])
    ub = layout.upper_bounds_us
    first, last = (int(finite[0]), int(finite[-1])) if finite.size else (len(ub) - 1,) * 2
    bounds, kept = ub[first : last + 1], c[first : last + 1]
    if first > 0:
        bounds = np.concatenate(([ub[first - 1]], bounds))
        kept = np.concatenate(([0.0], kept))
    return make_histogram(bounds, kept, float(c[-1]))


MIDDLEWARE_LAYOUT = LogLinearLayout(sub_buckets=64, bucket_count=1024)
"""The layout mcscope-middleware writes (its --describe-stats names it; a test holds them equal)."""
