"""A memtier_benchmark --json-out-file of one seeded client instance, in memtier's own format.

The document starts from a real memtier JSON (worker/tests/fixtures) and replaces its figures:
per-second counts and mean latencies as given, latencies spread like the real run's
(worker/seeding/latency.py), whole-run HDR histograms compressed as memtier writes them, and
memtier's quirks kept (whole-ms "Accumulated Latency", Totals "Average Latency" 0.0).
"""

from __future__ import annotations

import functools
import json
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hdrh.histogram import HdrHistogram

from worker.seeding.latency import FIXTURES, LatencyShape

TEMPLATE = FIXTURES / "memtier_ratio1-1_c2_t1_d128_5s.json"
# memtier's HdrHistogram layout (as decoded from its JSON): 10 us .. 600 s, 2 digits.
HDR_LOWEST_US, HDR_HIGHEST_US, HDR_DIGITS = 10, 600_000_000, 2
SECOND_PERCENTILES = (50.0, 90.0, 99.0, 99.9)
RUN_PERCENTILES = (50.0, 90.0, 99.0, 99.9)
DISTRIBUTION_STEPS = (*range(0, 100, 5), 99.0, 99.9, 100.0)
REQUEST_OVERHEAD_B = 40  # command line and reply headers of one request, roughly


@dataclass(frozen=True)
class InstanceLoad:
    """What one instance completed: per second, requests per type and the mean latency."""

    start_unix: float
    run_time_s: int
    sets: Sequence[int]
    gets: Sequence[int]
    response_time_us: Sequence[float]
    clients: int
    threads: int
    ratio: str
    value_size: int
    server: str
    port: int


@functools.cache
def _template() -> dict[str, Any]:
    doc: dict[str, Any] = json.loads(TEMPLATE.read_text())
    return doc


def _ms(us: float) -> float:
    return round(us / 1000.0, 3)


def latency_values(counts: Sequence[int], rt: Sequence[float], shape: LatencyShape) -> Counter[int]:
    """Every request's latency (us, as memtier records it), by value."""
    values: Counter[int] = Counter()
    for n, r in zip(counts, rt, strict=True):
        if not n:
            continue
        for rel, c in zip(shape.relative, shape.counts(n), strict=True):
            if c:
                values[max(1, round(r * rel))] += c
    return values


def _histogram(values: Counter[int]) -> HdrHistogram:
    hist = HdrHistogram(HDR_LOWEST_US, HDR_HIGHEST_US, HDR_DIGITS)
    for v, c in values.items():
        hist.record_value(v, c)
    return hist


def _second(
    n: int, r: float, acc_ms: int, shape: LatencyShape, bytes_rx: int, bytes_tx: int
) -> dict[str, Any]:
    out: dict[str, Any] = {"Bytes RX": bytes_rx, "Bytes TX": bytes_tx, "Count": n}
    if n:
        out |= {
            "Average Latency": _ms(r),
            "Accumulated Latency": acc_ms,
            "Min Latency": _ms(r * shape.relative[0]),
            "Max Latency": _ms(r * shape.relative[-1]),
        }
        out |= {f"p{q:.2f}": _ms(r * shape.quantile(q)) for q in SECOND_PERCENTILES}
    return out


def _type_block(
    counts: Sequence[int],
    rt: Sequence[float],
    shape: LatencyShape,
    duration_s: float,
    sizes: tuple[int, int],
    hits: bool,
    totals: bool = False,
) -> tuple[dict[str, Any], Counter[int]]:
    """One of Sets/Gets/Totals; `sizes` are the bytes received and sent per request."""
    series: dict[str, Any] = {}
    acc_us = acc_ms = 0
    for i, (n, r) in enumerate(zip(counts, rt, strict=True)):
        # memtier truncates to whole ms; rounding the running sum keeps the mean exact.
        acc_us += round(n * r)
        step = round(acc_us / 1000) - acc_ms
        acc_ms += step
        series[str(i)] = _second(n, r, step, shape, n * sizes[0], n * sizes[1])
    total = sum(counts)
    values = latency_values(counts, rt, shape)
    ops = total / duration_s
    rx, tx = ops * sizes[0] / 1024, ops * sizes[1] / 1024
    block: dict[str, Any] = {
        "Count": total,
        "Ops/sec": round(ops, 2),
        "Hits/sec": round(ops, 2) if hits else 0.0,
        "Misses/sec": 0.0,
        "Connection Errors/sec": 0.0,
        "Connection Errors": 0,
        "Latency": 0.0,
        "Average Latency": 0.0,
        "Accumulated Latency": acc_ms,
        "Min Latency": _ms(min(values, default=0)),
        "Max Latency": _ms(max(values, default=0)),
        "KB/sec": round(rx + tx, 2),
        "KB/sec RX/TX": round(rx + tx, 2),
        "KB/sec RX": round(rx, 2),
        "KB/sec TX": round(tx, 2),
        "Time-Serie": series,
        "Percentile Latencies": {},
    }
    if total:
        hist = _histogram(values)
        mean = 0.0 if totals else _ms(acc_ms * 1000 / total)
        block["Latency"] = block["Average Latency"] = mean
        at = hist.get_percentile_to_value_dict(list(RUN_PERCENTILES))
        block["Percentile Latencies"] = {
            **{f"p{q:.2f}": _ms(at[q]) for q in RUN_PERCENTILES},
            "Histogram log format": {"Compressed Histogram": hist.encode().decode("ascii")},
        }
    return block, values


def _distribution(values: Counter[int]) -> list[dict[str, float]]:
    """memtier's "SET"/"GET" list: latency (ms) at which each percent step is reached."""
    if not values:
        return [{"<=msec": 0.0, "percent": 100.0}]
    at = _histogram(values).get_percentile_to_value_dict([max(p, 1e-9) for p in DISTRIBUTION_STEPS])
    return [{"<=msec": _ms(at[max(p, 1e-9)]), "percent": float(p)} for p in DISTRIBUTION_STEPS]


def memtier_json(load: InstanceLoad, shape: LatencyShape) -> dict[str, Any]:
    """The --json-out-file document of one instance."""
    template = _template()
    doc: dict[str, Any] = {
        "configuration": dict(template["configuration"]),
        "run information": dict(template["run information"]),
        "ALL STATS": {"Runtime": dict(template["ALL STATS"]["Runtime"])},
    }
    doc["configuration"] |= {
        "server": load.server,
        "port": load.port,
        "clients": load.clients,
        "threads": load.threads,
        "test_time": load.run_time_s,
        "ratio": load.ratio,
        "data_size": load.value_size,
    }
    doc["run information"] |= {
        "Threads": load.threads,
        "Connections per thread": load.clients,
        "Seconds": load.run_time_s,
    }
    start_ms = round(load.start_unix * 1000)
    duration_ms = load.run_time_s * 1000 + 1
    stats = doc["ALL STATS"]
    stats["Runtime"] |= {
        "Start time": start_ms,
        "Finish time": start_ms + duration_ms,
        "Total duration": duration_ms,
    }
    duration_s = duration_ms / 1000
    rt = load.response_time_us
    key = 20  # "memtier-NNNN" plus the command's own bytes
    set_sizes = (8, load.value_size + key + REQUEST_OVERHEAD_B)
    get_sizes = (load.value_size + key + REQUEST_OVERHEAD_B, key + 8)
    stats["Sets"], set_values = _type_block(load.sets, rt, shape, duration_s, set_sizes, False)
    stats["Gets"], get_values = _type_block(load.gets, rt, shape, duration_s, get_sizes, True)
    stats["Waits"], _ = _type_block([0] * len(rt), rt, shape, duration_s, (0, 0), False)
    both = [s + g for s, g in zip(load.sets, load.gets, strict=True)]
    mixed = (
        round((set_sizes[0] * sum(load.sets) + get_sizes[0] * sum(load.gets)) / max(sum(both), 1)),
        round((set_sizes[1] * sum(load.sets) + get_sizes[1] * sum(load.gets)) / max(sum(both), 1)),
    )
    stats["Totals"], _ = _type_block(both, rt, shape, duration_s, mixed, False, totals=True)
    stats["Totals"]["Hits/sec"] = stats["Gets"]["Hits/sec"]
    stats["SET"] = _distribution(set_values)
    stats["GET"] = _distribution(get_values)
    stats["WAIT"] = _distribution(Counter())
    return doc


def write_memtier_json(path: Path, load: InstanceLoad, shape: LatencyShape) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(memtier_json(load, shape)))
