"""A middleware --stats-dir of one seeded middleware, in mcscope-middleware's own format.

windows.jsonl, window_histograms.jsonl (log-linear layout), histograms.json (100 us buckets)
and summary.json, line for line as middleware-cpp/src/stats_writer.cpp writes them. Each
window's requests take the real latency shape (worker/seeding/latency.py) around the window's
mean total, queue and server times, so per-window histograms hold exactly its completions.
"""

from __future__ import annotations

import functools
import json
import math
from collections.abc import Sequence
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

from backend.domain.middleware_memory import MiddlewareMemory
from backend.results.log_buckets import MIDDLEWARE_LAYOUT
from worker.parsers.middleware import HIST_KINDS, WINDOW_METRIC_NAMES
from worker.parsers.model import MIDDLEWARE_TYPES
from worker.seeding.latency import LatencyShape
from worker.seeding.shape import MIDDLEWARE_QUEUE, MIDDLEWARE_SERVER, MIDDLEWARE_TOTAL

# The middleware's whole-run histograms (middleware-cpp/src/histogram.hpp).
BUCKET_US = 100
BUCKET_COUNT = 500
WINDOW_MS = 1000
SAMPLE_EVERY = 100
SHARE = {"total": MIDDLEWARE_TOTAL, "queue": MIDDLEWARE_QUEUE, "server": MIDDLEWARE_SERVER}


@dataclass(frozen=True)
class MiddlewareLoad:
    """What one middleware completed per window (its own clock, from started_unix), and the
    response time its clients saw in each window."""

    started_unix: float
    sets: Sequence[int]
    gets: Sequence[int]
    client_response_us: Sequence[float]
    listen: str
    workers: int
    replication: int
    servers: Sequence[str]
    queue_capacity: int
    max_buffered_bytes: int  # the cap it was planned with, never reached (no memory_cap flag)


def _num(v: float) -> float:
    return round(v, 3)


def _type_stats(n: int, r: float, shape: LatencyShape) -> dict[str, Any]:
    """One type's window stats under the middleware's names (every name the parser reads,
    WINDOW_METRIC_NAMES, so a stat added to the middleware and the metric table is seeded
    too: 0 unless modelled here)."""
    out: dict[str, Any] = dict.fromkeys(WINDOW_METRIC_NAMES, 0)
    if not n:
        return out
    out |= {"completed": n, "keys": n}
    for k in ("queue", "server", "total"):
        mean = SHARE[k] * r
        out |= {f"{k}_us_mean": _num(mean), f"{k}_us_max": _num(mean * shape.relative[-1])}
    processing = (MIDDLEWARE_TOTAL - MIDDLEWARE_QUEUE - MIDDLEWARE_SERVER) * r
    return out | {"processing_us_mean": _num(processing)}


@functools.lru_cache(maxsize=4096)
def _dense(n: int, mean_us: float, shape: LatencyShape) -> dict[int, int]:
    """n values spread like the shape around mean_us, by log-linear bucket."""
    out: dict[int, int] = {}
    for rel, c in zip(shape.relative, shape.counts(n), strict=True):
        if c:
            i = MIDDLEWARE_LAYOUT.index(round(mean_us * rel * 1000))
            out[i] = out.get(i, 0) + c
    return out


def _whole_bucket(i: int) -> int:
    """The 100 us bucket (BUCKET_COUNT: overflow) of log-linear bucket i's values."""
    if i >= MIDDLEWARE_LAYOUT.bucket_count:
        return BUCKET_COUNT
    return min(int(MIDDLEWARE_LAYOUT.lower_ns(i) / 1000 // BUCKET_US), BUCKET_COUNT)


def _sparse(dense: dict[int, int]) -> dict[str, Any]:
    if not dense:
        return {"from": 0, "counts": []}
    lo, hi = min(dense), max(dense)
    return {"from": lo, "counts": [dense.get(i, 0) for i in range(lo, hi + 1)]}


def write_middleware_dir(directory: Path, load: MiddlewareLoad, shape: LatencyShape) -> None:
    """Writes the stats dir of a middleware that shut down cleanly."""
    directory.mkdir(parents=True, exist_ok=True)
    n_servers = len(load.servers)
    windows, hist_lines = (
        [],
        [
            json.dumps(
                {
                    "layout": "log_linear",
                    "unit_ns": 1,
                    "sub_buckets": MIDDLEWARE_LAYOUT.sub_buckets,
                    "bucket_count": MIDDLEWARE_LAYOUT.bucket_count,
                }
            )
        ],
    )
    whole = {t: {k: [0] * (BUCKET_COUNT + 1) for k in HIST_KINDS} for t in MIDDLEWARE_TYPES}
    totals = {t: {"completed": 0, "errors": 0, "misses": 0, "keys": 0} for t in MIDDLEWARE_TYPES}
    for w, (sets, gets, r) in enumerate(
        zip(load.sets, load.gets, load.client_response_us, strict=True)
    ):
        done = {"get": gets, "multiget": 0, "set": sets, "other": 0}
        # Little's law over the window: requests waiting = arrival rate x queue time.
        queue = (sets + gets) * MIDDLEWARE_QUEUE * r / 1e6
        per_server = [gets // n_servers + (s < gets % n_servers) for s in range(n_servers)]
        # Each set goes to `replication` servers from its key's primary (keys round robin).
        for j in range(load.replication):
            for s in range(n_servers):
                per_server[s] += sets // n_servers + ((s - j) % n_servers < sets % n_servers)
        windows.append(
            {
                "window": w,
                "start_us": float(w * WINDOW_MS * 1000),
                "end_us": float((w + 1) * WINDOW_MS * 1000),
                "queue_length_mean": _num(queue),
                "queue_length_max": math.ceil(queue * 2),
                "requests_per_server": per_server,
                "types": {t: _type_stats(done[t], r, shape) for t in MIDDLEWARE_TYPES},
            }
        )
        types: dict[str, Any] = {}
        for t in MIDDLEWARE_TYPES:
            types[t] = {}
            for k in HIST_KINDS:
                dense = _dense(done[t], round(SHARE[k] * r, 3), shape)
                types[t][k] = _sparse(dense)
                for i, c in dense.items():
                    whole[t][k][_whole_bucket(i)] += c
            totals[t]["completed"] += done[t]
            totals[t]["keys"] += done[t]
        hist_lines.append(json.dumps({"window": w, "types": types}))
    (directory / "windows.jsonl").write_text("".join(json.dumps(w) + "\n" for w in windows))
    (directory / "window_histograms.jsonl").write_text("".join(h + "\n" for h in hist_lines))
    histograms = {
        "bucket_us": BUCKET_US,
        "bucket_count": BUCKET_COUNT,
        "types": {
            t: {k: {"counts": c[:BUCKET_COUNT], "overflow": c[BUCKET_COUNT]} for k, c in h.items()}
            for t, h in whole.items()
        },
    }
    (directory / "histograms.json").write_text(json.dumps(histograms) + "\n")
    summary = {
        "format_version": 2,
        "started_unix": _num(load.started_unix),
        "stopped_unix": _num(load.started_unix + len(windows) * WINDOW_MS / 1000),
        "config": {
            "listen": load.listen,
            "workers": load.workers,
            "sharded": False,
            "replication": load.replication,
            "servers": list(load.servers),
            "window_ms": WINDOW_MS,
            "sample_every": SAMPLE_EVERY,
            "queue_capacity": load.queue_capacity,
        },
        "windows": len(windows),
        "clean_shutdown": True,
        "totals": totals,
        "queue_full_events": 0,
        # Seeded runs never reach the cap; the high-water mark is not modelled.
        "memory": {
            "max_buffered_bytes": load.max_buffered_bytes,
            **{f.name: 0 for f in fields(MiddlewareMemory) if f.name != "max_buffered_bytes"},
        },
    }
    (directory / "summary.json").write_text(json.dumps(summary) + "\n")
