"""Measurement statistics: stable window, aggregation across instances and repetitions."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
from scipy import stats as sps

from backend.analysis.errors import AnalysisError, require

FloatArray = npt.NDArray[np.float64]


@dataclass(frozen=True)
class InstanceAggregate:
    """Client instances combined over the stable window (throughput in ops/s, times in us)."""

    throughput_per_s: float  # sum over instances
    throughput_std_per_s: float
    response_time_us: float  # throughput-weighted mean
    response_time_std_us: float


@dataclass(frozen=True)
class RepetitionSummary:
    """Mean and spread of one metric over repetitions (std is None for a single value)."""

    n: int
    mean: float
    std: float | None  # sample standard deviation (ddof = 1)


@dataclass(frozen=True)
class ConfidenceInterval:
    """Two-sided t interval for the mean at `level` (e.g. 0.95)."""

    level: float
    mean: float
    low: float
    high: float
    half_width: float
    dof: int


def _as_array(values: npt.ArrayLike, field: str) -> FloatArray:
    arr = np.asarray(values, dtype=np.float64)
    require(arr.size > 0, field, "no data")
    require(bool(np.all(np.isfinite(arr))), field, "contains NaN or infinite values")
    return arr


def cut_window(series: npt.ArrayLike, warmup_s: int, cooldown_s: int) -> FloatArray:
    """Per-second samples without the first `warmup_s` and last `cooldown_s` seconds."""
    arr = _as_array(series, "series")
    require(warmup_s >= 0, "warmup_s", "must be >= 0")
    require(cooldown_s >= 0, "cooldown_s", "must be >= 0")
    end = arr.shape[-1] - cooldown_s
    if end <= warmup_s:
        raise AnalysisError(
            "warmup_s",
            f"warm-up {warmup_s} s + cool-down {cooldown_s} s leave no samples "
            f"of a {arr.shape[-1]} s series",
        )
    return arr[..., warmup_s:end]


def aggregate_aligned(throughput: npt.ArrayLike, response_us: npt.ArrayLike) -> InstanceAggregate:
    """Instances sampled on the same seconds: sum X per second, weight R by X per second.

    Inputs have shape (instances, seconds); the std is over the per-second totals.
    """
    x = _as_array(throughput, "throughput")
    r = _as_array(response_us, "response_time_us")
    require(x.shape == r.shape and x.ndim == 2, "throughput", "needs shape (instances, seconds)")
    total = x.sum(axis=0)
    require(bool(np.all(total > 0)), "throughput", "a second with zero total throughput")
    r_sec = (x * r).sum(axis=0) / total
    weights = total / total.sum()
    r_mean = float((weights * r_sec).sum())
    return InstanceAggregate(
        throughput_per_s=float(total.mean()),
        throughput_std_per_s=float(total.std(ddof=1)) if total.size > 1 else 0.0,
        response_time_us=r_mean,
        response_time_std_us=float(r_sec.std(ddof=1)) if r_sec.size > 1 else 0.0,
    )


def aggregate_unaligned(
    throughput_means: npt.ArrayLike,
    throughput_stds: npt.ArrayLike,
    response_means_us: npt.ArrayLike,
    response_stds_us: npt.ArrayLike,
) -> InstanceAggregate:
    """Instances whose seconds do not line up: combine their own means and stds.

    Throughput: sum of means, std sqrt(s_1^2 + ... + s_n^2) (independent instances).
    Response time: throughput-weighted mean, std sqrt(sum (w_i s_i)^2) with w_i = X_i / sum X.
    """
    xm = _as_array(throughput_means, "throughput_means")
    xs = _as_array(throughput_stds, "throughput_stds")
    rm = _as_array(response_means_us, "response_means_us")
    rs = _as_array(response_stds_us, "response_stds_us")
    require(xm.shape == xs.shape == rm.shape == rs.shape, "throughput_means", "lengths differ")
    require(float(xm.sum()) > 0, "throughput_means", "total throughput is zero")
    w = xm / xm.sum()
    return InstanceAggregate(
        throughput_per_s=float(xm.sum()),
        throughput_std_per_s=math.sqrt(float((xs**2).sum())),
        response_time_us=float((w * rm).sum()),
        response_time_std_us=math.sqrt(float(((w * rs) ** 2).sum())),
    )


def summarize(values: npt.ArrayLike) -> RepetitionSummary:
    """Mean and sample standard deviation across repetitions."""
    arr = _as_array(values, "values")
    std = float(arr.std(ddof=1)) if arr.size > 1 else None
    return RepetitionSummary(n=int(arr.size), mean=float(arr.mean()), std=std)


def confidence_interval(values: npt.ArrayLike, level: float = 0.95) -> ConfidenceInterval:
    """t-distribution CI of the mean; needs at least two repetitions."""
    arr = _as_array(values, "values")
    require(0.0 < level < 1.0, "level", "must lie strictly between 0 and 1")
    if arr.size < 2:
        raise AnalysisError("values", "a confidence interval needs at least 2 repetitions")
    dof = int(arr.size - 1)
    t = float(sps.t.ppf(0.5 + level / 2.0, dof))
    half = t * float(arr.std(ddof=1)) / math.sqrt(arr.size)
    mean = float(arr.mean())
    return ConfidenceInterval(level, mean, mean - half, mean + half, half, dof)


@dataclass(frozen=True)
class RunAggregates:
    """Per-run window means of many runs at once (arrays of length runs)."""

    throughput_per_s: FloatArray
    throughput_std_per_s: FloatArray
    response_time_us: FloatArray


def aggregate_runs(
    throughput: npt.ArrayLike, response_us: npt.ArrayLike, warmup_s: int, cooldown_s: int
) -> RunAggregates:
    """Vectorised aggregation of (runs, instances, seconds) arrays in one pass."""
    x = cut_window(throughput, warmup_s, cooldown_s)
    r = cut_window(response_us, warmup_s, cooldown_s)
    require(x.ndim == 3 and x.shape == r.shape, "throughput", "needs shape (runs, sources, s)")
    total = x.sum(axis=1)  # (runs, seconds)
    weighted = (x * r).sum(axis=1)
    sums = total.sum(axis=1)
    require(bool(np.all(sums > 0)), "throughput", "a run has zero throughput in its window")
    std = total.std(axis=1, ddof=1) if total.shape[1] > 1 else np.zeros(total.shape[0])
    return RunAggregates(total.mean(axis=1), std, weighted.sum(axis=1) / sums)


def summarize_groups(
    values: npt.ArrayLike, groups: npt.ArrayLike
) -> tuple[npt.NDArray[np.int64], FloatArray, FloatArray, npt.NDArray[np.int64]]:
    """Mean and std (ddof = 1, 0 for singletons) of `values` per group id, vectorised."""
    v = _as_array(values, "values")
    g = np.asarray(groups)
    require(g.shape == v.shape, "groups", "one group id per value")
    keys, inverse, counts = np.unique(g, return_inverse=True, return_counts=True)
    sums = np.bincount(inverse, weights=v)
    means = sums / counts
    sq = np.bincount(inverse, weights=(v - means[inverse]) ** 2)
    stds = np.where(counts > 1, np.sqrt(sq / np.maximum(counts - 1, 1)), 0.0)
    return keys.astype(np.int64), means, stds, counts.astype(np.int64)
