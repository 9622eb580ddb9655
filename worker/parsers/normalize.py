"""Turn tool-specific parse results into the one ClientResult the pipeline stores (us, per s)."""

from __future__ import annotations

from worker.parsers.errors import ParseError
from worker.parsers.hdr import HdrHistogram, decode_compressed_histogram, value_at_percentile
from worker.parsers.memaslap import MemaslapOutput, PeriodicBlock
from worker.parsers.memtier_json import MemtierJson, MemtierSection, MemtierTypeStats
from worker.parsers.model import ClientResult, ClientType, SecondSample, Summary, TypeResult

_MEMTIER_TYPES: dict[ClientType, str] = {"all": "Totals", "get": "Gets", "set": "Sets"}
_MEMASLAP_TYPES: dict[ClientType, str] = {"all": "Total", "get": "Get", "set": "Set"}


# ------------------------------------------------------------------ memtier


def _merge(hists: list[HdrHistogram]) -> HdrHistogram | None:
    """Sum histograms bucket by bucket (memtier uses one layout for every type)."""
    if not hists:
        return None
    first = hists[0]
    if any(
        (h.lowest_trackable, h.significant_digits)
        != (first.lowest_trackable, first.significant_digits)
        for h in hists
    ):
        raise ParseError("cannot merge HDR histograms with different layouts")
    width = max(len(h.counts) for h in hists)
    counts = [0] * width
    for h in hists:
        for i, c in enumerate(h.counts):
            counts[i] += c
    return HdrHistogram(
        first.lowest_trackable, first.highest_trackable, first.significant_digits, tuple(counts)
    )


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


def client_result_from_memtier(result: MemtierJson, *, section: str | None = None) -> ClientResult:
    """ClientResult from a parsed memtier JSON.

    section: "all" (single run), or "best"/"worst"/"aggregated" with --run-count > 1;
    default: the run's main section (aggregated results have no per-second series).
    Histograms come from the JSON's compressed HDR blobs; the aggregated Totals,
    whose own percentiles are unusable, get the merged Sets+Gets histogram.
    """
    name = section or result.main.name
    if name not in result.sections:
        raise ParseError(f"memtier result has no {name!r} section")
    sec = result.sections[name]
    k = result.multi_key_get
    decoded = {
        key: decode_compressed_histogram(t.compressed_histogram)
        for key, t in sec.types.items()
        if t.compressed_histogram is not None
    }
    if "Totals" not in decoded:
        merged = _merge([decoded[key] for key in ("Sets", "Gets") if key in decoded])
        if merged is not None:
            decoded["Totals"] = merged
    set_ops = sec.types["Sets"].ops_per_sec
    types: dict[ClientType, TypeResult] = {}
    for kind, key in _MEMTIER_TYPES.items():
        stats = sec.types[key]
        if stats.count == 0 and kind != "all":
            continue
        hist = decoded.get(key)
        buckets = hist.buckets(contiguous=True) if hist is not None else ()
        percentiles = dict(stats.percentiles_us or {})
        if not percentiles and buckets:
            wanted = sec.types["Sets"].percentiles_us or sec.types["Gets"].percentiles_us or {}
            percentiles = {p: value_at_percentile(buckets, p) for p in wanted}
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


# ----------------------------------------------------------------- memaslap


def _memaslap_sample(
    kind: ClientType, screen: dict[str, PeriodicBlock], keys_per_get: float
) -> SecondSample | None:
    block = screen.get(_MEMASLAP_TYPES[kind])
    if block is None:
        return None
    period, freq = block.period, max(block.period.time_s, 1)
    get_ops = screen["Get"].period.tps if "Get" in screen else 0
    set_ops = screen["Set"].period.tps if "Set" in screen else 0
    # "all": its own requests plus the extra keys of multi-gets (works without Get/Set tables).
    keys = {"get": get_ops * keys_per_get, "set": float(set_ops)}.get(
        kind, period.tps + get_ops * (keys_per_get - 1)
    )
    misses = None if kind == "set" else period.get_miss / freq
    hits = None if misses is None else max(keys - set_ops * (kind == "all") - misses, 0.0)
    return SecondSample(
        second=block.global_.time_s - freq,
        ops_per_sec=float(period.tps),
        mean_latency_us=float(period.avg_us) if period.ops else None,
        keys_per_sec=keys,
        hits_per_sec=hits,
        misses_per_sec=misses,
    )


def _log2_contiguous(dist: tuple[tuple[float, int], ...]) -> tuple[tuple[float, int], ...]:
    """memaslap prints Log2 rows from the first non-empty group of 4; add the empty
    buckets below (bounds 1, 2, 4, ...) so the histogram starts at 0 us."""
    if not dist:
        return ()
    first = int(dist[0][0]).bit_length() - 1
    return (*((float(2**i), 0) for i in range(first)), *dist)


def _memaslap_run_time(out: MemaslapOutput) -> float:
    """Run time in s: Ops / TPS (5 digits) when it agrees with the printed 1-decimal time."""
    if out.run_time_s <= 0:
        raise ParseError("memaslap run time is 0 s")
    if out.tps > 0:
        precise = out.ops / out.tps
        if abs(precise - out.run_time_s) <= 0.05 + 1e-3 * precise:
            return precise
    return out.run_time_s


def client_result_from_memaslap(out: MemaslapOutput) -> ClientResult:
    """ClientResult from parsed memaslap stdout.

    Series come from the periodic Period rows (second = Global elapsed - period),
    summaries from the final statistics over the run time (Ops / TPS, which is
    more precise than the printed 1-decimal "Run time"). With -d,
    keys per get is estimated as cmd_get / get events. memaslap prints no
    percentiles, so ``percentiles`` is empty; histograms are its Log2 buckets.
    """
    run = _memaslap_run_time(out)
    cmd_get = out.counters.get("cmd_get", 0)
    cmd_set = out.counters.get("cmd_set", 0)
    misses = out.counters.get("get_misses", 0) / run
    get_events = out.finals["Get"].events if "Get" in out.finals else 0
    keys_per_get = cmd_get / get_events if get_events else 1.0
    net_bytes = out.counters.get("written_bytes", 0) + out.counters.get("read_bytes", 0)
    kb_all = net_bytes / 1024 / run if net_bytes else out.net_rate_mb_per_sec * 1024
    types: dict[ClientType, TypeResult] = {}
    for kind, name in _MEMASLAP_TYPES.items():
        final = out.finals.get(name)
        if final is None and not (kind == "all" and not out.finals):
            continue
        keys = {"get": cmd_get / run, "set": cmd_set / run}.get(kind, out.ops / run)
        count = final.events if final is not None else out.ops
        gets = kind != "set"
        summary = Summary(
            ops_per_sec=count / run,
            count=count,
            mean_latency_us=float(final.avg_us) if final is not None else None,
            keys_per_sec=keys,
            hits_per_sec=max(cmd_get / run - misses, 0.0) if gets else None,
            misses_per_sec=misses if gets else None,
            kb_per_sec=kb_all if kind == "all" else None,
        )
        samples = (_memaslap_sample(kind, screen, keys_per_get) for screen in out.screens)
        types[kind] = TypeResult(
            summary=summary,
            series=tuple(s for s in samples if s is not None),
            histogram=_log2_contiguous(final.log2_dist) if final is not None else (),
        )
    return ClientResult(tool="memaslap", duration_s=run, types=types)
