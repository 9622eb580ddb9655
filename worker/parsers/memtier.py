"""memtier_benchmark's outputs as the pipeline's ClientResult, and its live progress.

Percentiles come from the most exact source a run has, in this order (PERCENTILE_SOURCES):
memtier's JSON values (whole microseconds: memtier records us and prints ms with 3
decimals), the JSON's compressed HDR histogram (every bucket), the .hgrm HDR log of
--hdr-file-prefix (the same histogram), and only then the HDR text table, whose
ticks are printed in ms with 2 decimals and skip buckets: in the 338,751-request fixture
memtier_ratio1-0_c4_t2_d4096_5s the table has 0.46 ms at TotalCount 338,388 and 0.66 ms on
the next row, so it says p99.9 = 660 us where the histogram and memtier's JSON say 543 us.
The worker's runs have the JSON (worker/drivers/memtier.py); the HDR files are read where a
run wrote them with the instance's prefix (name + HDR_SUFFIX).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from worker.parsers.errors import ParseError
from worker.parsers.hdr import (
    HdrHistogram,
    HdrPercentileTable,
    merge_histograms,
    parse_hdr_txt,
    parse_hgrm,
    value_at_percentile,
)
from worker.parsers.memtier_json import (
    MemtierJson,
    MemtierSection,
    MemtierTypeStats,
    parse_memtier_json,
)
from worker.parsers.model import ClientResult, ClientType, SecondSample, Summary, TypeResult
from worker.parsers.progress import US_PER_MS, ProgressParser, ProgressTick

_MEMTIER_TYPES: dict[ClientType, str] = {"all": "Totals", "get": "Gets", "set": "Sets"}
PRINTED_PERCENTILES: tuple[float, ...] = (50.0, 90.0, 99.0, 99.9)
"""The percentiles the worker asks memtier to print (--print-percentiles)."""
HDR_SUFFIX = "-hdr"
"""--hdr-file-prefix of an instance named `name` is `name` + HDR_SUFFIX (files
`<prefix>_FULL_RUN_1.hgrm`, `_GET_command_run_1`, `_SET_command_run_1`, .hgrm and .txt)."""

PercentileSource = Literal["json", "json-histogram", "hgrm", "table"]
PERCENTILE_SOURCES: tuple[PercentileSource, ...] = ("json", "json-histogram", "hgrm", "table")
"""Where a type's percentiles come from, most exact first: the first the run has wins."""

_HDR_FILE = re.compile(r"_(FULL_RUN|GET_command_run|SET_command_run)_1\.(hgrm|txt)$")
_HDR_TYPES = {"FULL_RUN": "Totals", "GET_command_run": "Gets", "SET_command_run": "Sets"}


@dataclass(frozen=True)
class HdrFiles:
    """A single run's --hdr-file-prefix outputs, keyed by the JSON's type ("Totals", "Gets",
    "Sets"): full HDR logs (exact) and printed percentile tables (2 decimals of ms)."""

    logs: Mapping[str, HdrHistogram] = field(default_factory=dict)
    tables: Mapping[str, HdrPercentileTable] = field(default_factory=dict)


def read_hdr_files(directory: Path, prefix: str) -> HdrFiles:
    """The HDR files of run 1 under `directory` named `prefix`_...; none: empty."""
    logs: dict[str, HdrHistogram] = {}
    tables: dict[str, HdrPercentileTable] = {}
    for path in sorted(directory.glob(f"{prefix}_*_1.*")):
        match = _HDR_FILE.search(path.name)
        if match is None or path.name != f"{prefix}{match.group(0)}":
            continue
        key, text = _HDR_TYPES[match.group(1)], path.read_text(errors="replace")
        if match.group(2) == "hgrm":
            merged = merge_histograms([i.histogram for i in parse_hgrm(text)])
            if merged is not None:
                logs[key] = merged
        else:
            tables[key] = parse_hdr_txt(text)
    return HdrFiles(logs, tables)


def exact_percentiles(
    stats: MemtierTypeStats,
    wanted: tuple[float, ...],
    histogram: HdrHistogram | None = None,
    log: HdrHistogram | None = None,
    table: HdrPercentileTable | None = None,
) -> tuple[dict[float, float], PercentileSource | None]:
    """One type's percentiles (us) from its most exact source (see PERCENTILE_SOURCES) and
    that source: the printed table only when nothing exact exists."""
    if stats.percentiles_us:
        return dict(stats.percentiles_us), "json"
    exact: tuple[tuple[PercentileSource, HdrHistogram | None], ...] = (
        ("json-histogram", histogram),
        ("hgrm", log),
    )
    for source, hist in exact:
        if hist is not None and hist.total_count > 0:
            buckets = hist.buckets(contiguous=True)
            return {p: value_at_percentile(buckets, p) for p in wanted}, source
    if table is not None and table.rows:  # ticks in ms with 2 decimals: the last resort
        return {p: table.value_at(p) for p in wanted}, "table"
    return {}, None


def _kept_seconds(section: MemtierSection) -> int:
    """Seconds to keep: those below the rounded run duration, which drops the trailing
    partial second memtier reports after a --test-time run (a handful of requests)."""
    return max(1, round(section.duration_ms / 1000.0))


def _memtier_series(
    section: MemtierSection, kind: ClientType, keys_per_get: int
) -> tuple[SecondSample, ...]:
    stats = section.types[_MEMTIER_TYPES[kind]]
    gets = {s.second: s.count for s in section.types["Gets"].series}
    limit = _kept_seconds(section)
    samples = []
    for s in stats.series:
        if s.second >= limit:
            continue
        get_count = gets.get(s.second, 0)
        keys = {"get": get_count * keys_per_get, "set": s.count}.get(
            kind, s.count + get_count * (keys_per_get - 1)
        )
        samples.append(
            SecondSample(
                s.second,
                float(s.count),
                s.mean_latency_us,
                float(keys),
                percentiles_us=s.percentiles_us,
            )
        )
    return tuple(samples)


def _memtier_summary(
    kind: ClientType, stats: MemtierTypeStats, keys_per_get: int, set_ops: float
) -> Summary:
    if kind == "set":
        return Summary(
            stats.ops_per_sec,
            stats.count,
            stats.mean_latency_us,
            keys_per_sec=stats.ops_per_sec,
            kb_per_sec=stats.kb_per_sec,
        )
    # Hits/sec + Misses/sec count keys (both for Gets and Totals); fall back to ops x K.
    get_keys = stats.hits_per_sec + stats.misses_per_sec
    if get_keys == 0:
        get_keys = (stats.ops_per_sec - (set_ops if kind == "all" else 0.0)) * keys_per_get
    keys = get_keys + (set_ops if kind == "all" else 0.0)
    return Summary(
        stats.ops_per_sec,
        stats.count,
        stats.mean_latency_us,
        keys_per_sec=keys,
        hits_per_sec=stats.hits_per_sec,
        misses_per_sec=stats.misses_per_sec,
        kb_per_sec=stats.kb_per_sec,
    )


def client_result_from_memtier(
    result: MemtierJson, *, section: str | None = None, hdr: HdrFiles | None = None
) -> ClientResult:
    """ClientResult from a parsed memtier JSON (and the run's HDR files, if any).

    section: "all" (single run), or "best"/"worst"/"aggregated" with --run-count > 1;
    default: the run's main section (aggregated results have no per-second series).
    Histograms come from the JSON's compressed HDR blobs (else the .hgrm logs of a single
    run); the aggregated Totals, whose own percentiles are unusable, get the merged
    Sets+Gets histogram. Percentiles: see exact_percentiles.
    """
    name = section or result.main.name
    if name not in result.sections:
        raise ParseError(f"memtier result has no {name!r} section")
    sec = result.sections[name]
    k = result.multi_key_get
    decoded = {key: t.histogram for key, t in sec.types.items() if t.histogram is not None}
    if "Totals" not in decoded:
        merged = merge_histograms([decoded[key] for key in ("Sets", "Gets") if key in decoded])
        if merged is not None:
            decoded["Totals"] = merged
    set_ops = sec.types["Sets"].ops_per_sec
    # The HDR files are a single run's (run 1): they belong to the "all" section only.
    files = hdr if hdr is not None and name == "all" else HdrFiles()
    printed = sec.types["Sets"].percentiles_us or sec.types["Gets"].percentiles_us
    wanted = tuple(printed) if printed else PRINTED_PERCENTILES
    types: dict[ClientType, TypeResult] = {}
    for kind, key in _MEMTIER_TYPES.items():
        stats = sec.types[key]
        if stats.count == 0 and kind != "all":
            continue
        hist = decoded.get(key)
        log = files.logs.get(key)
        percentiles, _ = exact_percentiles(stats, wanted, hist, log, files.tables.get(key))
        if hist is None:
            hist = log
        buckets = hist.buckets(contiguous=True) if hist is not None else ()
        types[kind] = TypeResult(
            summary=_memtier_summary(kind, stats, k, set_ops),
            series=_memtier_series(sec, kind, k),
            percentiles=percentiles,
            histogram=buckets,
        )
    duration_ms = sec.duration_ms or max(
        (s.duration_ms for s in result.sections.values()), default=0
    )
    return ClientResult(tool="memtier", duration_s=duration_ms / 1000.0, types=types)


def read_memtier_result(directory: Path, name: str) -> ClientResult:
    """The ClientResult of instance `name` from its files in `directory`: `name`.json, and
    the HDR files of prefix `name` + HDR_SUFFIX where the run wrote them."""
    text = (directory / f"{name}.json").read_text(errors="replace")
    hdr = read_hdr_files(directory, name + HDR_SUFFIX)
    return client_result_from_memtier(parse_memtier_json(text), hdr=hdr)


# ------------------------------------------------------------------ progress

_MEMTIER_PREFIX = re.compile(r"^\[RUN #(\d+) (\d+)%,\s*(\d+) secs\]")
_MEMTIER_OPS = re.compile(r"(\d+) ops,\s+(\d+) \(avg:\s*(\d+)\) ops/sec")
_MEMTIER_LATENCY = re.compile(r"(\d+(?:\.\d+)?) \(avg:\s*(\d+(?:\.\d+)?)\) msec latency")


class MemtierProgressParser(ProgressParser):
    """memtier stderr: "[RUN #1 40%,   2 secs]  1 threads  2 conns: ... ops/sec, ... latency"."""

    def parse_record(self, text: str) -> ProgressTick | None:
        prefix = _MEMTIER_PREFIX.match(text)
        if prefix is None:
            return None  # "[RUN #1] Preparing...", "Writing results..." and the like
        ops = _MEMTIER_OPS.search(text, prefix.end())
        if ops is None:
            raise ParseError(f"progress record without ops/sec: {text[:80]!r}")
        latency = _MEMTIER_LATENCY.search(text, ops.end())
        return ProgressTick(
            elapsed_s=int(prefix.group(3)),
            ops_per_sec=float(ops.group(2)),
            mean_latency_us=float(latency.group(1)) * US_PER_MS if latency else None,
            run=int(prefix.group(1)),
            percent=int(prefix.group(2)),
            avg_ops_per_sec=float(ops.group(3)),
        )
