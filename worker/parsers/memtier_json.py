"""parse_memtier_json: memtier_benchmark --json-out-file output, latencies converted to us.

Quirks handled (see the fixtures README "Format notes"):
- Totals "Average Latency" is 0.0: every mean (all types, every second) is
  derived as Accumulated Latency / Count; Accumulated Latency is in whole
  (truncated) ms, which is finer than "Average Latency" (3 decimals of ms)
  once a bucket holds more than ~1000 requests. stdout's "Avg. Latency" is
  the HDR histogram mean instead, biased up by the bucket width.
- "AGGREGATED AVERAGE RESULTS (N runs)": Count is summed over runs while Ops/sec
  is averaged; Totals has Accumulated/Min/Max 0 and unusable percentiles, so the
  Totals mean comes from the other types and its percentiles/histogram are None.
- Multi-get: Gets Ops/sec counts requests, Hits/sec and Misses/sec count keys.
- Seconds with Count 0 carry no latency fields; types with Count 0 carry bogus
  percentiles (0.007 ms), which are dropped.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from worker.parsers._json import JsonDoc
from worker.parsers.errors import ParseError
from worker.parsers.hdr import HdrHistogram, decode_compressed_histogram

US_PER_MS = 1000.0
TYPE_KEYS = ("Sets", "Gets", "Waits", "Totals")
DIST_KEYS = ("SET", "GET", "WAIT")
_AGGREGATED = re.compile(r"^AGGREGATED AVERAGE RESULTS \((\d+) runs\)$")
_RUN = re.compile(r"^RUN #(\d+) RESULTS$")  # one per run with --print-all-runs
_SECTION_NAMES = {"ALL STATS": "all", "BEST RUN RESULTS": "best", "WORST RUN RESULTS": "worst"}


def section_key(title: str) -> str | None:
    """Short key of a results section title ("all", "best", "worst", "aggregated", "run<n>")."""
    if title in _SECTION_NAMES:
        return _SECTION_NAMES[title]
    if _AGGREGATED.match(title):
        return "aggregated"
    run = _RUN.match(title)
    return f"run{run.group(1)}" if run else None


_PERCENTILE_KEY = re.compile(r"^p(\d+(?:\.\d+)?)$")


@dataclass(frozen=True, slots=True)
class MemtierSecond:
    """One entry of a per-second "Time-Serie" (latencies in us; None when Count is 0)."""

    second: int
    count: int
    bytes_rx: int
    bytes_tx: int
    mean_latency_us: float | None
    min_latency_us: float | None
    max_latency_us: float | None
    percentiles_us: dict[float, float]


@dataclass(frozen=True, slots=True)
class MemtierTypeStats:
    """One of Sets/Gets/Waits/Totals: rates per second, latencies in us."""

    count: int
    ops_per_sec: float
    hits_per_sec: float
    misses_per_sec: float
    mean_latency_us: float | None
    accumulated_latency_us: float
    min_latency_us: float | None
    max_latency_us: float | None
    kb_per_sec: float
    connection_errors: int
    series: tuple[MemtierSecond, ...]
    percentiles_us: dict[float, float] | None
    # memtier's compressed HDR blob, decoded where it is read so a bad one names its line.
    histogram: HdrHistogram | None


@dataclass(frozen=True, slots=True)
class MemtierSection:
    """ "ALL STATS" or one of BEST/WORST/AGGREGATED; ``distribution`` maps SET/GET/WAIT
    to (latency us, cumulative percent) points."""

    name: str
    duration_ms: int
    start_unix_ms: int
    interrupted: bool
    types: dict[str, MemtierTypeStats]
    distribution: dict[str, tuple[tuple[float, float], ...]]


@dataclass(frozen=True, slots=True)
class MemtierJson:
    """A whole JSON file; ``sections`` keyed "all", "best", "worst", "aggregated" (and
    "run1", "run2", ... with --print-all-runs)."""

    configuration: dict[str, Any]
    run_count: int
    multi_key_get: int
    sections: dict[str, MemtierSection]

    @property
    def main(self) -> MemtierSection:
        """The section to store: "all" for one run, "aggregated" for --run-count > 1."""
        return self.sections["all"] if "all" in self.sections else self.sections["aggregated"]


def _percentiles(doc: JsonDoc, obj: dict[str, Any], path: tuple[str, ...]) -> dict[float, float]:
    result: dict[float, float] = {}
    for key in obj:
        match = _PERCENTILE_KEY.match(key)
        if match:
            result[float(match.group(1))] = doc.nonneg(obj, key, path) * US_PER_MS
    return result


def _mean_us(average_ms: float, accumulated_us: float, count: int) -> float:
    """Mean latency in us: Accumulated / Count (whole ms over many requests beats
    "Average Latency", which has 3 decimals and is 0.0 in Totals)."""
    if count > 0 and accumulated_us > 0:
        return accumulated_us / count
    return average_ms * US_PER_MS


def _second(doc: JsonDoc, key: str, value: Any, path: tuple[str, ...]) -> MemtierSecond:
    if not key.isdigit():
        raise doc.error(path, f"second index {key!r} is not an integer")
    obj = doc.obj(value, path)
    count = doc.count(obj, "Count", path)
    has_latency = count > 0 and "Average Latency" in obj

    def lat(name: str) -> float | None:
        return doc.nonneg(obj, name, path) * US_PER_MS if has_latency else None

    mean = None
    if has_latency:
        accumulated = doc.nonneg(obj, "Accumulated Latency", path) * US_PER_MS
        mean = _mean_us(doc.nonneg(obj, "Average Latency", path), accumulated, count)
    return MemtierSecond(
        second=int(key),
        count=count,
        bytes_rx=doc.count(obj, "Bytes RX", path),
        bytes_tx=doc.count(obj, "Bytes TX", path),
        mean_latency_us=mean,
        min_latency_us=lat("Min Latency"),
        max_latency_us=lat("Max Latency"),
        percentiles_us=_percentiles(doc, obj, path) if has_latency else {},
    )


def _type_stats(doc: JsonDoc, obj: dict[str, Any], path: tuple[str, ...]) -> MemtierTypeStats:
    count = doc.count(obj, "Count", path)
    series_obj = doc.obj(doc.field(obj, "Time-Serie", path), (*path, "Time-Serie"))
    series = tuple(_second(doc, k, v, (*path, "Time-Serie", k)) for k, v in series_obj.items())
    if [s.second for s in series] != sorted(s.second for s in series):
        raise doc.error((*path, "Time-Serie"), "seconds out of order")
    pct_path = (*path, "Percentile Latencies")
    pct_obj = doc.obj(doc.field(obj, "Percentile Latencies", path), pct_path)
    histogram: HdrHistogram | None = None
    if "Histogram log format" in pct_obj:
        hist_path = (*pct_path, "Histogram log format")
        hist_obj = doc.obj(pct_obj["Histogram log format"], hist_path)
        blob = doc.string(hist_obj, "Compressed Histogram", hist_path)
        try:
            histogram = decode_compressed_histogram(blob)
        except ParseError as exc:
            raise doc.error((*hist_path, "Compressed Histogram"), exc.message) from None
    accumulated = doc.nonneg(obj, "Accumulated Latency", path) * US_PER_MS
    mean = _mean_us(doc.nonneg(obj, "Average Latency", path), accumulated, count)
    empty = count == 0
    return MemtierTypeStats(
        count=count,
        ops_per_sec=doc.nonneg(obj, "Ops/sec", path),
        hits_per_sec=doc.nonneg(obj, "Hits/sec", path),
        misses_per_sec=doc.nonneg(obj, "Misses/sec", path),
        mean_latency_us=None if empty or mean == 0.0 else mean,
        accumulated_latency_us=accumulated,
        min_latency_us=None if empty else doc.nonneg(obj, "Min Latency", path) * US_PER_MS,
        max_latency_us=None if empty else doc.nonneg(obj, "Max Latency", path) * US_PER_MS,
        kb_per_sec=doc.nonneg(obj, "KB/sec", path),
        connection_errors=doc.count(obj, "Connection Errors", path),
        series=series,
        percentiles_us=None if empty else _percentiles(doc, pct_obj, pct_path),
        histogram=None if empty else histogram,
    )


def _distribution(
    doc: JsonDoc, value: Any, path: tuple[str, ...]
) -> tuple[tuple[float, float], ...]:
    if not isinstance(value, list):
        raise doc.error(path, f"expected a list, got {type(value).__name__}")
    points = []
    for item in value:
        point = doc.obj(item, path)
        points.append(
            (doc.nonneg(point, "<=msec", path) * US_PER_MS, doc.nonneg(point, "percent", path))
        )
    return tuple(points)


def _fix_aggregated_totals(types: dict[str, MemtierTypeStats]) -> None:
    """Aggregated Totals report no latency; rebuild the mean from the per-type sums."""
    parts = [types[k] for k in ("Sets", "Gets", "Waits") if k in types and types[k].count > 0]
    totals = types["Totals"]
    weighted = [(p.mean_latency_us, p.count) for p in parts if p.mean_latency_us is not None]
    count = sum(c for _, c in weighted)
    mean = sum(m * c for m, c in weighted) / count if count else None
    mins = [p.min_latency_us for p in parts if p.min_latency_us is not None]
    maxs = [p.max_latency_us for p in parts if p.max_latency_us is not None]
    types["Totals"] = MemtierTypeStats(
        count=totals.count,
        ops_per_sec=totals.ops_per_sec,
        hits_per_sec=totals.hits_per_sec,
        misses_per_sec=totals.misses_per_sec,
        mean_latency_us=mean,
        accumulated_latency_us=sum(p.accumulated_latency_us for p in parts),
        min_latency_us=min(mins) if mins else None,
        max_latency_us=max(maxs) if maxs else None,
        kb_per_sec=totals.kb_per_sec,
        connection_errors=totals.connection_errors,
        series=totals.series,
        percentiles_us=None,
        histogram=None,
    )


def _section(doc: JsonDoc, title: str, name: str, value: Any) -> MemtierSection:
    path = (title,)
    obj = doc.obj(value, path)
    runtime = doc.obj(doc.field(obj, "Runtime", path), (title, "Runtime"))
    rpath = (title, "Runtime")
    unit = doc.string(runtime, "Time unit", rpath)
    if unit != "MILLISECONDS":
        raise doc.error((*rpath, "Time unit"), f"unsupported time unit {unit!r}")
    types = {
        key: _type_stats(doc, doc.obj(doc.field(obj, key, path), (title, key)), (title, key))
        for key in TYPE_KEYS
    }
    if name == "aggregated":
        _fix_aggregated_totals(types)
    return MemtierSection(
        name=name,
        duration_ms=doc.count(runtime, "Total duration", rpath),
        start_unix_ms=doc.count(runtime, "Start time", rpath),
        interrupted=doc.boolean(runtime, "Interrupted", rpath),
        types=types,
        distribution={k: _distribution(doc, obj[k], (title, k)) for k in DIST_KEYS if k in obj},
    )


def parse_memtier_json(text: str) -> MemtierJson:
    """Parse a memtier_benchmark ``--json-out-file``; ParseError with a line on bad input."""
    doc = JsonDoc(text)
    root = doc.obj(doc.root, ())
    config = doc.obj(doc.field(root, "configuration", ()), ("configuration",))
    sections: dict[str, MemtierSection] = {}
    for title, value in root.items():
        if title in ("configuration", "run information"):
            continue
        name = section_key(title)
        if name is None:
            raise doc.error((title,), f"unknown section {title!r}")
        sections[name] = _section(doc, title, name, value)
    if "all" not in sections and "aggregated" not in sections:
        raise ParseError("no 'ALL STATS' or 'AGGREGATED AVERAGE RESULTS' section", line=1)
    mkg = config.get("multi_key_get", 0)
    run_count = config.get("run_count", 1)
    if not isinstance(mkg, int) or not isinstance(run_count, int):
        raise doc.error(("configuration", "multi_key_get"), "expected integers")
    return MemtierJson(
        configuration=config,
        run_count=run_count,
        multi_key_get=max(mkg, 1),
        sections=sections,
    )
