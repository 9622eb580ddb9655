"""A middleware's outputs as rows: per-window series read by the metric table's middleware
stat names (backend/domain/metrics.py `Metric.middleware`), stable-window summaries with
percentiles from its per-window histograms, and its histograms."""

import dataclasses
from collections.abc import Sequence

from backend.analysis.percentiles import percentiles_from_histogram, percentiles_from_samples
from backend.domain.metrics import MIDDLEWARE_STATS, PERCENTILE_COLUMNS
from backend.models import HistogramMetric, RequestType
from backend.results.aggregate import offset_s
from backend.results.log_buckets import LogLinearLayout, log_linear_histogram
from worker.parsers import MiddlewareStats
from worker.parsers.middleware import HIST_KINDS
from worker.parsers.model import (
    MIDDLEWARE_TYPES,
    FixedHistogram,
    MiddlewareType,
    MiddlewareWindowHistograms,
    Window,
    WindowTypeStats,
)
from worker.runs.summarize.histograms import histogram_row, window_counts, window_histogram_rows
from worker.runs.summarize.window import NAN, ResultRows, StableWindow, window_summary

_TYPE_STATS = {f.name: f.type for f in dataclasses.fields(WindowTypeStats)}
_COUNTERS = frozenset(k for k, t in _TYPE_STATS.items() if t in ("int", int))
"""Per-type counters (completed, keys, misses): a metric read from one is a rate."""

_MW_TYPE = {
    "get": RequestType.GET,
    "multiget": RequestType.MULTIGET,
    "set": RequestType.SET,
    "other": RequestType.OTHER,
}


def window_values(w: Window, kinds: Sequence[MiddlewareType]) -> dict[str, float]:
    """One window's value of every metric read from a middleware stat, by column, over the
    given request types: per-type counters as rates (summed over the types, per second of the
    window), per-type means weighted by completions (NaN without any), per-window fields as
    they are."""
    done = [w.types[k].completed for k in kinds]
    n = sum(done)

    def mean(attr: str) -> float:
        weighted = (float(getattr(w.types[k], attr)) * c for k, c in zip(kinds, done, strict=True))
        return sum(weighted) / n

    out: dict[str, float] = {}
    for stat, m in MIDDLEWARE_STATS.items():
        if stat in _COUNTERS:
            out[m.column] = float(sum(getattr(w.types[k], stat) for k in kinds)) / w.duration_s
        elif stat in _TYPE_STATS:
            out[m.column] = mean(stat) if n else NAN
        else:
            out[m.column] = float(getattr(w, stat))
    return out


def window_percentiles(
    hists: MiddlewareWindowHistograms,
    kinds: Sequence[MiddlewareType],
    shift: int,
    window: StableWindow,
) -> dict[str, float | None]:
    """The stored percentile columns of the middleware's response time over the stable window:
    its per-window histograms summed (every request, not a sample), the one percentile rule
    (percentiles_from_histogram). A percentile the buckets cannot resolve is None."""
    dense = window_counts(hists, kinds, "total")
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


def middleware_rows(source: str, stats: MiddlewareStats, window: StableWindow) -> ResultRows:
    """Rows of one middleware; needs summary.json for its clock (written at clean shutdown)."""
    if stats.summary is None:
        raise ValueError(f"{source}: no summary.json (the middleware did not shut down cleanly)")
    t0 = stats.summary.started_unix
    rows = ResultRows()
    rows.tool_errors[source] = sum(t.errors for t in stats.summary.totals.values())
    rows.memory[source] = stats.summary.memory
    groups: list[tuple[RequestType, tuple[MiddlewareType, ...]]] = [
        (RequestType.ALL, MIDDLEWARE_TYPES)
    ] + [(_MW_TYPE[k], (k,)) for k in MIDDLEWARE_TYPES]
    for rtype, kinds in groups:
        if not any(w.types[k].completed for w in stats.windows for k in kinds):
            continue
        per = [window_values(w, kinds) for w in stats.windows]
        start_unix = t0 + stats.windows[0].start_us / 1e6 if stats.windows else t0
        rows.series.append(
            {
                "source": source,
                "request_type": rtype,
                "start_unix": start_unix,
                **{m.column: [v[m.column] for v in per] for m in MIDDLEWARE_STATS.values()},
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
                row = histogram_row(source, rtype, HistogramMetric(metric), merged.pairs())
                if row:
                    rows.histograms.append(row)
    return rows
