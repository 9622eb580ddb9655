"""Normalized, generator-independent results the pipeline stores (ClientResult, MiddlewareStats).

Units everywhere in this module: latencies in microseconds (us), rates per
second, sizes in KB (1024 bytes). Every parser converts into these units so
that nothing downstream needs to know which tool produced a number.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

from backend.domain.middleware_memory import MiddlewareMemory

ClientType = Literal["all", "get", "set"]
"""Request types of a client result; memtier's "Totals" and memaslap's "Total" are "all"."""

MiddlewareType = Literal["get", "multiget", "set", "other"]
MIDDLEWARE_TYPES: tuple[MiddlewareType, ...] = ("get", "multiget", "set", "other")

Histogram = tuple[tuple[float, int], ...]
"""Latency histogram as (bucket upper bound in us, count) pairs, ascending and contiguous.

Bucket k holds the values above bound k-1 (0 for the first bucket) up to its own
bound: HDR buckets end at their highest equivalent value (memtier records
integer us), memaslap's Log2 bucket i ends at 2^i us, the middleware's fixed
buckets at (i+1)*bucket_us (exclusive there; immaterial for float times), and
an overflow bucket at +inf. Empty buckets in between are kept as zeros so the
lower edges can be read off the previous pair.
"""


@dataclass(frozen=True, slots=True)
class SecondSample:
    """One second of a run for one request type.

    second: 0-based index of the second since the load started.
    ops_per_sec: requests completed in that second (per second).
    mean_latency_us: mean response time of those requests, None if not reported.
    keys_per_sec: keys requested per second (multi-gets: requests x keys), None if unknown.
    hits_per_sec / misses_per_sec: keys found / not found per second, None if unknown.
    percentiles_us: the tool's own latency percentiles of that second (memtier's Time-Serie
    p50/p90/p99/p99.9), keyed by percentile; empty when the tool gives none.
    """

    second: int
    ops_per_sec: float
    mean_latency_us: float | None
    keys_per_sec: float | None = None
    hits_per_sec: float | None = None
    misses_per_sec: float | None = None
    percentiles_us: Mapping[float, float] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Summary:
    """Whole-run figures for one request type.

    ops_per_sec: requests per second; keys_per_sec: keys per second (equal to
    ops_per_sec except for multi-gets); hits/misses per second count keys;
    mean_latency_us: mean response time in us; kb_per_sec: network KB/s;
    count: number of requests. None means the tool did not report it.
    """

    ops_per_sec: float
    count: int
    mean_latency_us: float | None
    keys_per_sec: float | None = None
    hits_per_sec: float | None = None
    misses_per_sec: float | None = None
    kb_per_sec: float | None = None


@dataclass(frozen=True, slots=True)
class TypeResult:
    """Everything known about one request type: series, summary, percentiles (us), histogram."""

    summary: Summary
    series: tuple[SecondSample, ...] = ()
    percentiles: Mapping[float, float] = field(default_factory=dict)
    histogram: Histogram = ()


@dataclass(frozen=True, slots=True)
class ClientResult:
    """One load generator's result, whatever the tool.

    tool: the load generator's registered name (backend.domain.load_generators);
    duration_s: measured run time in seconds;
    types: per request type ("all", "get", "set"), only types that ran.
    """

    tool: str
    duration_s: float
    types: Mapping[ClientType, TypeResult]


# ---------------------------------------------------------------- middleware


@dataclass(frozen=True, slots=True)
class WindowTypeStats:
    """One request type in one middleware window (times in us, counts per window)."""

    completed: int
    errors: int
    misses: int
    keys: int
    queue_us_mean: float
    queue_us_max: float
    server_us_mean: float
    server_us_max: float
    total_us_mean: float
    total_us_max: float
    processing_us_mean: float
    reply_bytes_mean: float


@dataclass(frozen=True, slots=True)
class Window:
    """One middleware window (default 1 s); start/end in us since middleware start."""

    window: int
    start_us: float
    end_us: float
    queue_length_mean: float
    queue_length_max: int
    requests_per_server: tuple[int, ...]
    types: Mapping[MiddlewareType, WindowTypeStats]

    @property
    def duration_s(self) -> float:
        """Window length in seconds."""
        return (self.end_us - self.start_us) / 1e6

    def ops_per_sec(self, kind: MiddlewareType) -> float:
        """Completed requests of ``kind`` per second in this window."""
        return self.types[kind].completed / self.duration_s


@dataclass(frozen=True, slots=True)
class FixedHistogram:
    """Fixed-width histogram: counts[i] holds values in [i*bucket_us, (i+1)*bucket_us)."""

    bucket_us: float
    counts: tuple[int, ...]
    overflow: int

    @property
    def total(self) -> int:
        """All recorded values, overflow included."""
        return sum(self.counts) + self.overflow

    def pairs(self) -> Histogram:
        """As (bucket upper bound us, count) pairs; overflow gets bound +inf."""
        edges = [((i + 1) * self.bucket_us, c) for i, c in enumerate(self.counts)]
        return (*edges, (float("inf"), self.overflow))


@dataclass(frozen=True, slots=True)
class MiddlewareHistograms:
    """histograms.json: per type, the "total", "queue" and "server" time histograms."""

    bucket_us: float
    bucket_count: int
    types: Mapping[MiddlewareType, Mapping[str, FixedHistogram]]


@dataclass(frozen=True, slots=True)
class SparseCounts:
    """Counts of buckets first, first + 1, ... of a log-linear layout (empty: no values)."""

    first: int
    counts: tuple[int, ...]

    @property
    def total(self) -> int:
        """All recorded values, overflow included."""
        return sum(self.counts)


@dataclass(frozen=True, slots=True)
class WindowHistograms:
    """One window of window_histograms.jsonl: per type, "total", "queue" and "server" counts."""

    window: int
    types: Mapping[MiddlewareType, Mapping[str, SparseCounts]]


@dataclass(frozen=True, slots=True)
class MiddlewareWindowHistograms:
    """window_histograms.jsonl: the log-linear layout, then one entry per window (from 0)."""

    sub_buckets: int
    bucket_count: int  # finite buckets; index bucket_count is the overflow bucket
    windows: tuple[WindowHistograms, ...]


@dataclass(frozen=True, slots=True)
class SampledRequest:
    """One row of requests.csv; times in us since middleware start."""

    type: MiddlewareType
    keys: int
    arrival_us: float
    enqueue_us: float
    dequeue_us: float
    sent_us: float
    replied_us: float
    written_us: float
    servers: int
    misses: int

    @property
    def queue_us(self) -> float:
        """Time waiting in the work queue."""
        return self.dequeue_us - self.enqueue_us

    @property
    def server_us(self) -> float:
        """Time from sending to the server(s) to the last reply."""
        return self.replied_us - self.sent_us

    @property
    def total_us(self) -> float:
        """Middleware response time (arrival to reply written)."""
        return self.written_us - self.arrival_us


@dataclass(frozen=True, slots=True)
class TypeTotals:
    """summary.json totals for one type."""

    completed: int
    errors: int
    misses: int
    keys: int


@dataclass(frozen=True, slots=True)
class MiddlewareConfig:
    """summary.json "config" block."""

    listen: str
    workers: int
    sharded: bool
    replication: int
    servers: tuple[str, ...]
    window_ms: float
    sample_every: int
    queue_capacity: int


@dataclass(frozen=True, slots=True)
class MiddlewareSummary:
    """summary.json, written at clean shutdown (unix times in seconds)."""

    format_version: int
    started_unix: float
    stopped_unix: float
    config: MiddlewareConfig
    windows: int
    clean_shutdown: bool
    totals: Mapping[MiddlewareType, TypeTotals]
    queue_full_events: int
    memory: MiddlewareMemory  # the memory cap it ran with and what the cap did


@dataclass(frozen=True, slots=True)
class MiddlewareStats:
    """A whole --stats-dir; files the middleware had not written yet are None/empty."""

    windows: tuple[Window, ...]
    histograms: MiddlewareHistograms | None
    requests: tuple[SampledRequest, ...]
    summary: MiddlewareSummary | None
    window_histograms: MiddlewareWindowHistograms | None = None
