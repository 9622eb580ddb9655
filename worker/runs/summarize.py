"""Pure conversion of parsed outputs into result rows: per-second series and stable-window means.

The stable window is [warmup_s, run_time_s - cooldown_s) seconds after the load generators
started. The window means are backend/results/aggregate.py's (rule 2: middleware series
shifted by their whole-second start offset, seconds without completions never poisoning a
mean), so a stored summary equals the same window re-cut from the stored series.
"""

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from backend.analysis.percentiles import percentiles_from_histogram, percentiles_from_samples
from backend.domain.window import DesignWindow
from backend.models import HistogramMetric, RequestType
from backend.results.aggregate import SourceSeries, SourceWindow, offset_s, source_window
from backend.results.aggregate import Window as ClockWindow
from backend.results.log_buckets import LogLinearLayout, log_linear_histogram
from backend.results.metrics import PERCENTILE_COLUMNS
from worker.parsers import ClientResult, MiddlewareStats
from worker.parsers.middleware import HIST_KINDS
from worker.parsers.model import (
    MIDDLEWARE_TYPES,
    FixedHistogram,
    Histogram,
    MiddlewareType,
    MiddlewareWindowHistograms,
    SecondSample,
    Window,
)

NAN = float("nan")


@dataclass(frozen=True)
class StableWindow:
    """Absolute unix bounds of the measured part of a run, plus its offsets in seconds."""

    load_start_unix: float
    start_s: int
    end_s: int

    @classmethod
    def after(cls, load_start_unix: float, design: DesignWindow) -> "StableWindow":
        """The design's window placed after the load generators started."""
        return cls(load_start_unix, design.start_s, design.end_s)

    @property
    def start_unix(self) -> float:
        return self.load_start_unix + self.start_s

    @property
    def end_unix(self) -> float:
        return self.load_start_unix + self.end_s


@dataclass
class ResultRows:
    """Column dicts for RunSeries, RunSummary, RunHistogram and RunWindowHistogram (run_id
    added on insert)."""

    series: list[dict[str, Any]] = field(default_factory=list)
    summaries: list[dict[str, Any]] = field(default_factory=list)
    histograms: list[dict[str, Any]] = field(default_factory=list)
    window_histograms: list[dict[str, Any]] = field(default_factory=list)
    # Errors each source's tool counted over the whole run (the quality flag reads them).
    tool_errors: dict[str, int] = field(default_factory=dict)

    def extend(self, other: "ResultRows") -> None:
        self.series += other.series
        self.summaries += other.summaries
        self.histograms += other.histograms
        self.window_histograms += other.window_histograms
        self.tool_errors.update(other.tool_errors)


def _std(values: Iterable[float]) -> float | None:
    xs = [v for v in values if not math.isnan(v)]
    if len(xs) < 2:
        return None
    mean = sum(xs) / len(xs)
    return math.sqrt(sum((x - mean) ** 2 for x in xs) / (len(xs) - 1))


def window_summary(
    source: str, series: dict[str, Any], window: StableWindow
) -> dict[str, Any] | None:
    """The stored summary columns of one series over the stable window (None: not covered)."""
    if window.end_s <= window.start_s:
        return None
    values = {k: v for k, v in series.items() if isinstance(v, list)}
    shift = offset_s(series["start_unix"], window.load_start_unix)
    sw: SourceWindow | None = source_window(
        SourceSeries(source, series["start_unix"], values),
        shift,
        ClockWindow(window.start_s, window.end_s),
    )
    if sw is None:
        return None
    a = max(window.start_s - shift, 0)
    rt = series["response_time_us"][a : a + sw.seconds]
    tp = series["throughput"][a : a + sw.seconds]
    out: dict[str, Any] = {
        m: (NAN if v is None else v) if m == "response_time_us" else v
        for m, v in sw.values.items()
        if m in _SUMMARY_COLUMNS
    }
    out["throughput"] = out.pop("throughput_per_s")
    return {
        **out,
        "count": int(round(sum(x for x in tp if not math.isnan(x)))),
        "weight": sw.weights["response_time_us"],
        "response_time_std_us": _std(rt),
    }


_SUMMARY_COLUMNS = (
    "throughput_per_s",
    "keys_per_s",
    "misses_per_s",
    "response_time_us",
    "queue_time_us",
    "server_time_us",
    "processing_time_us",
    "queue_length",
    *PERCENTILE_COLUMNS,
)


def _histogram_row(
    source: str, rtype: RequestType, metric: HistogramMetric, hist: Histogram
) -> dict[str, Any] | None:
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


def client_rows(
    source: str,
    result: ClientResult,
    window: StableWindow,
    multiget: bool,
    start_unix: float | None = None,
) -> ResultRows:
    """Rows of one load generator instance; its second 0 starts at start_unix (its own start;
    default the run's, window.load_start_unix), so instances started apart line up."""
    start = window.load_start_unix if start_unix is None else start_unix
    rows = ResultRows()
    for kind, typed in result.types.items():
        rtype = RequestType(kind)
        if kind == "get" and multiget:
            rtype = RequestType.MULTIGET
        length = max((s.second for s in typed.series), default=-1) + 1
        tp, rt, keys, misses = [0.0] * length, [NAN] * length, [0.0] * length, [0.0] * length
        for s in typed.series:
            if s.second < 0:
                continue
            tp[s.second] = s.ops_per_sec
            rt[s.second] = NAN if s.mean_latency_us is None else s.mean_latency_us
            keys[s.second] = s.ops_per_sec if s.keys_per_sec is None else s.keys_per_sec
            misses[s.second] = s.misses_per_sec or 0.0
        rows.series.append(
            {
                "source": source,
                "request_type": rtype,
                "start_unix": start,
                "throughput": tp,
                "response_time_us": rt,
                "keys_per_s": keys,
                "misses_per_s": misses,
                **_percentile_series(typed.series, length),
            }
        )
        series = rows.series[-1]
        windowed = window_summary(source, series, window)
        if windowed is not None:
            summary = {k: v for k, v in windowed.items() if k not in _MW_ONLY}
        else:  # no per-second series: whole-run figures are all there is
            whole = typed.summary
            summary = {
                "count": whole.count,
                "throughput": whole.ops_per_sec,
                "keys_per_s": whole.keys_per_sec,
                "misses_per_s": whole.misses_per_sec,
                "response_time_us": NAN if whole.mean_latency_us is None else whole.mean_latency_us,
                "response_time_std_us": None,
                "weight": None,
            }
            # The tool's whole-run percentiles belong with whole-run figures only.
            summary.update({c: typed.percentiles.get(q) for c, q in PERCENTILE_COLUMNS.items()})
        rows.summaries.append(
            {
                "source": source,
                "request_type": rtype,
                "window_start_s": window.start_s,
                "window_end_s": window.end_s,
                **summary,
            }
        )
        hist_row = _histogram_row(source, rtype, HistogramMetric.CLIENT, typed.histogram)
        if hist_row:
            rows.histograms.append(hist_row)
    return rows


def _percentile_series(
    seconds: Sequence[SecondSample], length: int
) -> dict[str, list[float] | None]:
    """Per-second percentile arrays from the tool's per-second percentiles (NaN for a second
    without them); None for a column the tool never reports, so the source lacks the metric."""
    out: dict[str, list[float] | None] = {}
    for column, q in PERCENTILE_COLUMNS.items():
        values = [NAN] * length
        for s in seconds:
            if s.second >= 0 and q in s.percentiles_us:
                values[s.second] = s.percentiles_us[q]
        out[column] = values if any(not math.isnan(v) for v in values) else None
    return out


_MW_ONLY = ("queue_time_us", "server_time_us", "processing_time_us", "queue_length")

_MW_TYPE = {
    "get": RequestType.GET,
    "multiget": RequestType.MULTIGET,
    "set": RequestType.SET,
    "other": RequestType.OTHER,
}


def _window_values(w: Window, kinds: Sequence[MiddlewareType]) -> dict[str, float]:
    """One window's figures over the given request types (completed-weighted means)."""
    done = [w.types[k].completed for k in kinds]
    n = sum(done)

    def mean(attr: str) -> float:
        weighted = (float(getattr(w.types[k], attr)) * c for k, c in zip(kinds, done, strict=True))
        return sum(weighted) / n

    return {
        "completed": float(n),
        "duration": w.duration_s,
        "keys": float(sum(w.types[k].keys for k in kinds)),
        "misses": float(sum(w.types[k].misses for k in kinds)),
        "total": mean("total_us_mean") if n else NAN,
        "queue": mean("queue_us_mean") if n else NAN,
        "server": mean("server_us_mean") if n else NAN,
        "processing": mean("processing_us_mean") if n else NAN,
        "queue_length": w.queue_length_mean,
    }


def _window_counts(
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


def window_percentiles(
    hists: MiddlewareWindowHistograms,
    kinds: Sequence[MiddlewareType],
    shift: int,
    window: StableWindow,
) -> dict[str, float | None]:
    """The stored percentile columns of the middleware's response time over the stable window:
    its per-window histograms summed (every request, not a sample), the one percentile rule
    (percentiles_from_histogram). A percentile the buckets cannot resolve is None."""
    dense = _window_counts(hists, kinds, "total")
    n = dense.shape[0]
    a, b = (max(0, min(s - shift, n)) for s in (window.start_s, window.end_s))
    counts = dense[a:b].sum(axis=0)
    if b <= a or counts.sum() == 0:
        return dict.fromkeys(PERCENTILE_COLUMNS)
    hist = log_linear_histogram(LogLinearLayout(hists.sub_buckets, hists.bucket_count), counts)
    ps = percentiles_from_histogram(hist, tuple(PERCENTILE_COLUMNS.values()))
    return {c: None if p.bound else p.value_us for c, p in zip(PERCENTILE_COLUMNS, ps, strict=True)}


def sample_percentiles(samples: Sequence[float]) -> dict[str, float | None]:
    """The stored percentile columns from sampled response times (a middleware that wrote no
    per-window histograms), by the same one rule; None for a window without samples."""
    if not samples:
        return dict.fromkeys(PERCENTILE_COLUMNS)
    values = percentiles_from_samples(samples, tuple(PERCENTILE_COLUMNS.values()))
    return {c: float(v) for c, v in zip(PERCENTILE_COLUMNS, values, strict=True)}


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
        dense = _window_counts(hists, kinds, name)
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


def middleware_rows(source: str, stats: MiddlewareStats, window: StableWindow) -> ResultRows:
    """Rows of one middleware; needs summary.json for its clock (written at clean shutdown)."""
    if stats.summary is None:
        raise ValueError(f"{source}: no summary.json (the middleware did not shut down cleanly)")
    t0 = stats.summary.started_unix
    rows = ResultRows()
    rows.tool_errors[source] = sum(t.errors for t in stats.summary.totals.values())
    groups: list[tuple[RequestType, tuple[MiddlewareType, ...]]] = [
        (RequestType.ALL, MIDDLEWARE_TYPES)
    ] + [(_MW_TYPE[k], (k,)) for k in MIDDLEWARE_TYPES]
    for rtype, kinds in groups:
        per = [_window_values(w, kinds) for w in stats.windows]
        if not any(v["completed"] for v in per):
            continue
        start_unix = t0 + stats.windows[0].start_us / 1e6 if stats.windows else t0
        rows.series.append(
            {
                "source": source,
                "request_type": rtype,
                "start_unix": start_unix,
                "throughput": [v["completed"] / v["duration"] for v in per],
                "response_time_us": [v["total"] for v in per],
                "keys_per_s": [v["keys"] / v["duration"] for v in per],
                "misses_per_s": [v["misses"] / v["duration"] for v in per],
                "queue_time_us": [v["queue"] for v in per],
                "server_time_us": [v["server"] for v in per],
                "processing_time_us": [v["processing"] for v in per],
                "queue_length": [v["queue_length"] for v in per],
            }
        )
        if stats.window_histograms is not None and rtype != RequestType.ALL:
            # "all" is not stored: readers add the types' rows (a third less to store).
            rows.window_histograms += window_histogram_rows(
                source, start_unix, stats.window_histograms, rtype, kinds
            )
        summary = window_summary(source, rows.series[-1], window)
        if summary is None:
            continue
        if stats.window_histograms is not None:
            shift = offset_s(start_unix, window.load_start_unix)
            pct = window_percentiles(stats.window_histograms, kinds, shift, window)
        else:  # a middleware without per-window histograms: its sampled requests, same rule
            samples = [
                r.total_us
                for r in stats.requests
                if r.type in kinds
                and window.start_unix <= t0 + r.arrival_us / 1e6 < window.end_unix
            ]
            pct = sample_percentiles(samples)
        rows.summaries.append(
            {
                "source": source,
                "request_type": rtype,
                "window_start_s": window.start_s,
                "window_end_s": window.end_s,
                **summary,
                **pct,
            }
        )
    if stats.histograms is not None:
        for rtype, kinds in groups:
            for metric in HIST_KINDS:
                hs = [stats.histograms.types[k][metric] for k in kinds]
                if not sum(h.total for h in hs):
                    continue
                # "all" is the sum of the kinds (one layout: bucket by bucket).
                merged = FixedHistogram(
                    hs[0].bucket_us,
                    tuple(sum(c) for c in zip(*(h.counts for h in hs), strict=True)),
                    sum(h.overflow for h in hs),
                )
                row = _histogram_row(source, rtype, HistogramMetric(metric), merged.pairs())
                if row:
                    rows.histograms.append(row)
    return rows
