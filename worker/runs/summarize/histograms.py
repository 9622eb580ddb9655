"""Histogram encoding: whole-run histograms as bound/count rows, and a middleware's per-window
log-linear histograms as cumulative count blobs (RunWindowHistogram, see the model)."""

import math
from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from backend.models import HistogramMetric, RequestType
from worker.parsers.middleware import HIST_KINDS
from worker.parsers.model import Histogram, MiddlewareType, MiddlewareWindowHistograms


def histogram_row(
    source: str, rtype: RequestType, metric: HistogramMetric, hist: Histogram
) -> dict[str, Any] | None:
    """A RunHistogram row: finite buckets by upper bound, the +inf bucket as overflow."""
    finite = [(b, c) for b, c in hist if math.isfinite(b)]
    if not finite:
        return None
    overflow = sum(c for b, c in hist if not math.isfinite(b))
    return {
        "source": source,
        "request_type": rtype,
        "metric": metric,
        "upper_bounds_us": [float(b) for b, _ in finite],
        "counts": [int(c) for _, c in finite],
        "overflow": int(overflow),
    }


def window_counts(
    hists: MiddlewareWindowHistograms, kinds: Sequence[MiddlewareType], name: str
) -> npt.NDArray[np.int64]:
    """Per window (rows), the counts of every bucket (overflow last) of `kinds` summed."""
    dense = np.zeros((len(hists.windows), hists.bucket_count + 1), dtype=np.int64)
    for w, wh in enumerate(hists.windows):
        for kind in kinds:
            sc = wh.types[kind][name]
            if sc.counts:
                dense[w, sc.first : sc.first + len(sc.counts)] += np.asarray(sc.counts)
    return dense


def window_histogram_rows(
    source: str,
    start_unix: float,
    hists: MiddlewareWindowHistograms,
    rtype: RequestType,
    kinds: Sequence[MiddlewareType],
) -> list[dict[str, Any]]:
    """RunWindowHistogram rows of one request type (its kinds summed).

    Counts are cumulative over windows and cut to the run's range of non-empty buckets, so a
    window's histogram is a difference of two rows (see the model); int32 when the run's
    counts fit (nearly always: half the bytes), else int64.
    """
    n = len(hists.windows)
    rows = []
    for name in HIST_KINDS:
        dense = window_counts(hists, kinds, name)
        used = np.flatnonzero(dense.any(axis=0))
        if used.size == 0:
            continue
        lo, hi = int(used[0]), int(used[-1]) + 1
        cum = np.cumsum(dense[:, lo:hi], axis=0)
        cum = cum.astype("<i4" if cum[-1].max() < 2**31 else "<i8")
        rows.append(
            {
                "source": source,
                "request_type": rtype,
                "metric": HistogramMetric(name),
                "start_unix": start_unix,
                "sub_buckets": hists.sub_buckets,
                "bucket_count": hists.bucket_count,
                "first_bucket": lo,
                "width": hi - lo,
                "windows": n,
                "cum": cum.tobytes(),
            }
        )
    return rows
