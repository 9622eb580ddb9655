"""Strict parsers for the middleware's --stats-dir files (the middleware-cpp <-> worker contract).

Files: windows.jsonl, window_histograms.jsonl, histograms.json, requests.csv, summary.json; times in
us since middleware start. Strict on purpose: a missing or unknown key, a wrong
type, a negative count or a window gap is a ParseError naming file and line,
because a silently misread middleware stat would corrupt every analysis.
"""

from __future__ import annotations

import csv
import dataclasses
from typing import Any

from backend.domain.middleware_memory import MiddlewareMemory
from worker.parsers._json import JsonDoc
from worker.parsers.errors import ParseError
from worker.parsers.model import (
    MIDDLEWARE_TYPES,
    FixedHistogram,
    MiddlewareConfig,
    MiddlewareHistograms,
    MiddlewareSummary,
    MiddlewareType,
    MiddlewareWindowHistograms,
    SampledRequest,
    SparseCounts,
    TypeTotals,
    Window,
    WindowHistograms,
    WindowTypeStats,
)

_WINDOW_KEYS = {
    "window",
    "start_us",
    "end_us",
    "queue_length_mean",
    "queue_length_max",
    "requests_per_server",
    "types",
}
# Per-type window metrics by name: the WindowTypeStats fields, named as the middleware's
# --describe-stats lists them (a test holds the two equal); ints are counters, floats times.
_WINDOW_TYPE_FIELDS = {f.name: f.type for f in dataclasses.fields(WindowTypeStats)}
_COUNT_FIELDS = tuple(k for k, t in _WINDOW_TYPE_FIELDS.items() if t in ("int", int))
_TIME_FIELDS = tuple(k for k, t in _WINDOW_TYPE_FIELDS.items() if t in ("float", float))
WINDOW_METRIC_NAMES: tuple[str, ...] = tuple(_WINDOW_TYPE_FIELDS)
HIST_KINDS = ("total", "queue", "server")
"""Histogram kinds, as the middleware's --describe-stats lists them (a test holds them equal)."""
_HIST_KINDS = HIST_KINDS
_LAYOUT_KEYS = {"layout", "unit_ns", "sub_buckets", "bucket_count"}
_REQUEST_HEADER = [
    "type",
    "keys",
    "arrival_us",
    "enqueue_us",
    "dequeue_us",
    "sent_us",
    "replied_us",
    "written_us",
    "servers",
    "misses",
]
_CONFIG_KEYS = {
    "listen",
    "workers",
    "sharded",
    "replication",
    "servers",
    "window_ms",
    "sample_every",
    "queue_capacity",
}
_SUMMARY_KEYS = {
    "format_version",
    "started_unix",
    "stopped_unix",
    "config",
    "windows",
    "clean_shutdown",
    "totals",
    "queue_full_events",
    "memory",
}
_MEMORY_KEYS = [f.name for f in dataclasses.fields(MiddlewareMemory)]
FORMAT_VERSION = 2  # 2: the "memory" block
_SLACK = 1e-6  # float rounding allowed when checking mean <= max


def _types_obj(doc: JsonDoc, value: Any, path: tuple[str, ...]) -> dict[str, Any]:
    obj = doc.obj(value, path)
    doc.exact_keys(obj, set(MIDDLEWARE_TYPES), path)
    return obj


def _window_type(doc: JsonDoc, value: Any, path: tuple[str, ...]) -> WindowTypeStats:
    obj = doc.obj(value, path)
    doc.exact_keys(obj, set(_COUNT_FIELDS + _TIME_FIELDS), path)
    values: dict[str, int | float] = {k: doc.count(obj, k, path) for k in _COUNT_FIELDS}
    values |= {k: doc.nonneg(obj, k, path) for k in _TIME_FIELDS}
    stats = WindowTypeStats(**values)  # type: ignore[arg-type]
    # Impossible combinations mean a middleware bug (e.g. swapped fields): refuse them.
    if stats.misses > stats.keys:
        raise doc.error((*path, "misses"), f"{stats.misses} misses for {stats.keys} keys")
    for name in ("queue", "server", "total"):
        mean, peak = getattr(stats, f"{name}_us_mean"), getattr(stats, f"{name}_us_max")
        if mean > peak * (1 + _SLACK) + _SLACK:
            raise doc.error((*path, f"{name}_us_mean"), f"mean {mean} above max {peak}")
    if stats.completed == 0 and any(getattr(stats, k) for k in _TIME_FIELDS):
        raise doc.error((*path, "completed"), "non-zero times for 0 completed requests")
    return stats


def _window(line: str, lineno: int) -> Window:
    doc = JsonDoc(line, line_offset=lineno - 1)
    obj = doc.obj(doc.root, ())
    doc.exact_keys(obj, _WINDOW_KEYS, ())
    rps = doc.field(obj, "requests_per_server", ())
    if not isinstance(rps, list):
        raise doc.error(("requests_per_server",), "expected a list")
    servers = tuple(doc.count({"n": n}, "n", ("requests_per_server",)) for n in rps)
    types = _types_obj(doc, obj["types"], ("types",))
    window = Window(
        window=doc.count(obj, "window", ()),
        start_us=doc.nonneg(obj, "start_us", ()),
        end_us=doc.nonneg(obj, "end_us", ()),
        queue_length_mean=doc.nonneg(obj, "queue_length_mean", ()),
        queue_length_max=doc.count(obj, "queue_length_max", ()),
        requests_per_server=servers,
        types={k: _window_type(doc, types[k], ("types", k)) for k in MIDDLEWARE_TYPES},
    )
    if window.end_us <= window.start_us:
        raise ParseError(f"window {window.window} ends at or before its start", line=lineno)
    if window.queue_length_mean > window.queue_length_max * (1 + _SLACK) + _SLACK:
        raise doc.error(("queue_length_mean",), "mean queue length above its max")
    return window


def parse_middleware_windows(text: str) -> tuple[Window, ...]:
    """Parse windows.jsonl: one window per line, numbered from 0 without gaps."""
    windows: list[Window] = []
    for lineno, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            raise ParseError("blank line", line=lineno)
        window = _window(line, lineno)
        if window.window != len(windows):
            raise ParseError(
                f"window {window.window} where {len(windows)} was expected (gap or disorder)",
                line=lineno,
            )
        if windows and window.start_us < windows[-1].end_us - 1e-6:
            raise ParseError(
                f"window {window.window} starts before the previous one ends", line=lineno
            )
        if windows and len(window.requests_per_server) != len(windows[0].requests_per_server):
            raise ParseError("requests_per_server changes length", line=lineno)
        windows.append(window)
    return tuple(windows)


def parse_middleware_histograms(text: str) -> MiddlewareHistograms:
    """Parse histograms.json (bucket i = [i*bucket_us, (i+1)*bucket_us), plus overflow)."""
    doc = JsonDoc(text)
    obj = doc.obj(doc.root, ())
    doc.exact_keys(obj, {"bucket_us", "bucket_count", "types"}, ())
    bucket_us = doc.num(obj, "bucket_us", ())
    bucket_count = doc.count(obj, "bucket_count", ())
    if bucket_us <= 0 or bucket_count == 0:
        raise doc.error(("bucket_us",), "bucket_us and bucket_count must be positive")
    types_obj = _types_obj(doc, obj["types"], ("types",))
    types: dict[MiddlewareType, dict[str, FixedHistogram]] = {}
    for kind in MIDDLEWARE_TYPES:
        tpath = ("types", kind)
        per_kind = doc.obj(types_obj[kind], tpath)
        doc.exact_keys(per_kind, set(_HIST_KINDS), tpath)
        types[kind] = {}
        for hist_kind in _HIST_KINDS:
            hpath = (*tpath, hist_kind)
            hist = doc.obj(per_kind[hist_kind], hpath)
            doc.exact_keys(hist, {"counts", "overflow"}, hpath)
            counts = hist["counts"]
            if not isinstance(counts, list) or len(counts) != bucket_count:
                raise doc.error((*hpath, "counts"), f"expected a list of {bucket_count} counts")
            values = tuple(doc.count({"c": c}, "c", (*hpath, "counts")) for c in counts)
            types[kind][hist_kind] = FixedHistogram(
                bucket_us, values, doc.count(hist, "overflow", hpath)
            )
    return MiddlewareHistograms(bucket_us, bucket_count, types)


def _sparse(doc: JsonDoc, value: Any, path: tuple[str, ...], buckets: int) -> SparseCounts:
    hist = doc.obj(value, path)
    doc.exact_keys(hist, {"from", "counts"}, path)
    first = doc.count(hist, "from", path)
    counts = hist["counts"]
    if not isinstance(counts, list):
        raise doc.error((*path, "counts"), "expected a list of counts")
    if first + len(counts) > buckets + 1:
        raise doc.error((*path, "counts"), f"runs past the overflow bucket {buckets}")
    values = tuple(doc.count({"c": c}, "c", (*path, "counts")) for c in counts)
    return SparseCounts(first, values)


def parse_middleware_window_histograms(text: str) -> MiddlewareWindowHistograms:
    """Parse window_histograms.jsonl: a layout line, then one line per window from 0.

    Each histogram is {"from": i, "counts": [...]}: buckets i, i+1, ... of the log-linear
    layout (backend/results/log_buckets.py), index bucket_count being the overflow bucket.
    """
    lines = text.splitlines()
    if not lines:
        raise ParseError("missing the layout line", line=1)
    head = JsonDoc(lines[0])
    layout = head.obj(head.root, ())
    head.exact_keys(layout, _LAYOUT_KEYS, ())
    if layout["layout"] != "log_linear" or layout["unit_ns"] != 1:
        raise head.error(("layout",), "expected a log_linear layout in unit_ns 1")
    sub_buckets = head.count(layout, "sub_buckets", ())
    buckets = head.count(layout, "bucket_count", ())
    if sub_buckets < 2 or sub_buckets & (sub_buckets - 1) or buckets < sub_buckets:
        raise head.error(("sub_buckets",), "sub_buckets must be a power of 2 <= bucket_count")
    windows: list[WindowHistograms] = []
    for lineno, line in enumerate(lines[1:], start=2):
        doc = JsonDoc(line, line_offset=lineno - 1)
        obj = doc.obj(doc.root, ())
        doc.exact_keys(obj, {"window", "types"}, ())
        w = doc.count(obj, "window", ())
        if w != len(windows):
            raise ParseError(f"window {w} where {len(windows)} was expected", line=lineno)
        types_obj = _types_obj(doc, obj["types"], ("types",))
        types: dict[MiddlewareType, dict[str, SparseCounts]] = {}
        for kind in MIDDLEWARE_TYPES:
            per_kind = doc.obj(types_obj[kind], ("types", kind))
            doc.exact_keys(per_kind, set(_HIST_KINDS), ("types", kind))
            types[kind] = {
                h: _sparse(doc, per_kind[h], ("types", kind, h), buckets) for h in _HIST_KINDS
            }
        windows.append(WindowHistograms(w, types))
    return MiddlewareWindowHistograms(sub_buckets, buckets, tuple(windows))


def _request_row(row: list[str], lineno: int) -> SampledRequest:
    if len(row) != len(_REQUEST_HEADER):
        raise ParseError(f"expected {len(_REQUEST_HEADER)} fields, got {len(row)}", line=lineno)
    kind = row[0]
    if kind not in MIDDLEWARE_TYPES:
        raise ParseError(f"unknown request type {kind!r}", line=lineno)
    try:
        keys, servers, misses = int(row[1]), int(row[8]), int(row[9])
        times = [float(v) for v in row[2:8]]
    except ValueError:
        raise ParseError("non-numeric field", line=lineno) from None
    if min(keys, servers, misses) < 0 or min(times) < 0:
        raise ParseError("negative value", line=lineno)
    if any(b < a for a, b in zip(times, times[1:], strict=False)):
        raise ParseError(
            "timestamps not in arrival<=enqueue<=dequeue<=sent<=replied<=written order", line=lineno
        )
    if misses > keys:
        raise ParseError(f"{misses} misses for {keys} keys", line=lineno)
    arrival, enqueue, dequeue, sent, replied, written = times
    return SampledRequest(
        kind,
        keys,
        arrival,
        enqueue,
        dequeue,
        sent,
        replied,
        written,
        servers,
        misses,
    )


def parse_middleware_requests(text: str) -> tuple[SampledRequest, ...]:
    """Parse requests.csv (header line, then one sampled request per row)."""
    lines = text.splitlines()
    rows: list[list[str]] = []
    for lineno, line in enumerate(lines, start=1):
        try:
            rows.append(next(csv.reader([line]), []))
        except csv.Error as exc:
            raise ParseError(f"bad CSV: {exc}", line=lineno) from None
    if not rows or rows[0] != _REQUEST_HEADER:
        raise ParseError(f"header must be {','.join(_REQUEST_HEADER)}", line=1)
    return tuple(_request_row(row, i) for i, row in enumerate(rows[1:], start=2))


def parse_middleware_summary(text: str) -> MiddlewareSummary:
    """Parse summary.json (written at clean shutdown)."""
    doc = JsonDoc(text)
    obj = doc.obj(doc.root, ())
    doc.exact_keys(obj, _SUMMARY_KEYS, ())
    version = doc.count(obj, "format_version", ())
    if version != FORMAT_VERSION:
        raise doc.error(("format_version",), f"unsupported format_version {version}")
    cfg = doc.obj(obj["config"], ("config",))
    doc.exact_keys(cfg, _CONFIG_KEYS, ("config",))
    servers = cfg["servers"]
    if not isinstance(servers, list) or not all(isinstance(s, str) for s in servers):
        raise doc.error(("config", "servers"), "expected a list of host:port strings")
    config = MiddlewareConfig(
        listen=doc.string(cfg, "listen", ("config",)),
        workers=doc.count(cfg, "workers", ("config",)),
        sharded=doc.boolean(cfg, "sharded", ("config",)),
        replication=doc.count(cfg, "replication", ("config",)),
        servers=tuple(servers),
        window_ms=doc.nonneg(cfg, "window_ms", ("config",)),
        sample_every=doc.count(cfg, "sample_every", ("config",)),
        queue_capacity=doc.count(cfg, "queue_capacity", ("config",)),
    )
    totals_obj = _types_obj(doc, obj["totals"], ("totals",))
    totals: dict[MiddlewareType, TypeTotals] = {}
    for kind in MIDDLEWARE_TYPES:
        tpath = ("totals", kind)
        t = doc.obj(totals_obj[kind], tpath)
        doc.exact_keys(t, set(_COUNT_FIELDS), tpath)
        totals[kind] = TypeTotals(**{k: doc.count(t, k, tpath) for k in _COUNT_FIELDS})
    mem = doc.obj(obj["memory"], ("memory",))
    doc.exact_keys(mem, set(_MEMORY_KEYS), ("memory",))
    memory = MiddlewareMemory(**{k: doc.count(mem, k, ("memory",)) for k in _MEMORY_KEYS})
    started, stopped = doc.num(obj, "started_unix", ()), doc.num(obj, "stopped_unix", ())
    if stopped < started:
        raise doc.error(("stopped_unix",), "stopped before it started")
    return MiddlewareSummary(
        format_version=version,
        started_unix=started,
        stopped_unix=stopped,
        config=config,
        windows=doc.count(obj, "windows", ()),
        clean_shutdown=doc.boolean(obj, "clean_shutdown", ()),
        totals=totals,
        queue_full_events=doc.count(obj, "queue_full_events", ()),
        memory=memory,
    )
