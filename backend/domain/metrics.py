"""The metric table: every result metric declared once (as twemproxy's nc_stats.h does).

Each entry says what the metric is, which source kinds report it, which stored column holds
it, how instances of one run combine and how repetitions combine. Everything else derives
from this table: the analysis `MetricName` choices and units (OpenAPI enum included), the
aggregation rules in `backend.results.aggregate`, the SQL fast path in
`backend.crud.fast_path`, and the summary columns the worker writes.

From it also: the ORM's metric columns (`backend.domain.stored_columns`, read by
`backend/models/results.py` and by the migrations that add a metric's columns), the worker's
summary columns (`worker/runs/summarize/`), series and table units, the seeded middleware
output, and the mapping from the middleware's stat names (`Metric.middleware`, held equal to
the binary's `--describe-stats` by worker/tests/parsers/test_metric_table.py).

Adding a metric: one `Metric(...)` entry below (plus its name in `MetricName`, which mypy
needs spelled out; an import-time check keeps the two equal), a migration that adds its
columns (`stored_columns(METRICS[name])`), and the code that measures it. A middleware metric
whose stat the middleware already writes needs no worker code: the summaries read it by
`Metric.middleware` (a mean stat, or a per-window field of windows.jsonl).
"""

from __future__ import annotations

from dataclasses import KW_ONLY, dataclass
from typing import Literal, get_args

SourceKind = Literal["client", "middleware", "host", "net", "process"]
"""Which side measured: the load generators ("client:N"), the middlewares ("middleware:N"), or
the run's monitor (worker/drivers/monitor_probe.py): each host ("host:<host>"), each network
interface ("net:<host>:<iface>") and each process mcscope started ("process:<role>:<N>", e.g.
"process:server:0"; the monitor itself is "process:monitor:<host>")."""


def source_prefix(source: SourceKind, role: str | None = None) -> str:
    """What the stored source names of a side start with: "client:", or with a process role
    "process:middleware:" (that role's processes only)."""
    return f"{source}:{role}:" if role is not None else f"{source}:"


InstanceRule = Literal["sum", "weighted", "none"]
"""How instances of one run combine.

sum: add the instances' window means (rates, queue lengths: the system total).
weighted: mean weighted by each instance's completions with a measured time (times).
none: not combinable; the run has a value only if exactly one instance reports it.
"""

RepetitionRule = Literal["mean"]
"""How repetitions of a configuration combine: mean, sample std and a t confidence interval."""

MetricName = Literal[
    "throughput_per_s",
    "keys_per_s",
    "misses_per_s",
    "response_time_us",
    "p50_us",
    "p90_us",
    "p99_us",
    "queue_time_us",
    "server_time_us",
    "processing_time_us",
    "queue_length",
    "host_cpu_user_pct",
    "host_cpu_system_pct",
    "host_cpu_iowait_pct",
    "host_cpu_steal_pct",
    "host_cpu_busy_pct",
    "host_cpus",
    "host_mem_used_bytes",
    "net_rx_bytes_per_s",
    "net_tx_bytes_per_s",
    "net_rx_packets_per_s",
    "net_tx_packets_per_s",
    "process_cpu_pct",
    "reply_bytes",
]


@dataclass(frozen=True)
class Metric:
    """One row of the metric table.

    column: the run_summaries column with the stable-window value (and the run_series
    column with its per-second values, if `per_second`).
    fast: the run_series table holds prefix sums of it, so the SQL fast path re-cuts any
    window from a few array reads (`<column>_cumsum`, or `<column>_wcumsum` and
    `<column>_weight_cumsum` for weighted metrics; see migrations 0003).
    approximate: the instance rule is an approximation (percentiles cannot be averaged;
    the merged histograms give the exact value).
    percentile: for a latency percentile, which one (its per-second values are the tool's
    own per-second percentiles; a window's value is their completion-weighted mean, an
    approximation of the window's percentile that the percentiles view states as such).
    middleware: the middleware's name of the stat it is read from (middleware-cpp
    `MCSCOPE_METRICS`, as `--describe-stats` lists them): a per-type counter is divided by
    the window's length (a rate), a per-type mean combines over request types weighted by
    completions, a per-window field (windows.jsonl) is read as it is. None: not a stat of the
    middleware's windows (percentiles come from its histograms).
    description: what the metric is, in a phrase without its unit (the API's field
    descriptions are generated from it: backend/schemas/glossary.py).
    """

    name: MetricName
    unit: str
    label: str
    sources: tuple[SourceKind, ...]
    instances: InstanceRule
    repetitions: RepetitionRule
    column: str
    per_second: bool
    fast: bool = False
    approximate: bool = False
    percentile: float | None = None
    middleware: str | None = None
    _: KW_ONLY
    description: str


_BOTH: tuple[SourceKind, ...] = ("client", "middleware")
_MW: tuple[SourceKind, ...] = ("middleware",)
_HOST: tuple[SourceKind, ...] = ("host",)
_NET: tuple[SourceKind, ...] = ("net",)
_PROC: tuple[SourceKind, ...] = ("process",)

METRICS: dict[MetricName, Metric] = {
    m.name: m
    for m in (
        Metric("throughput_per_s", "ops/s", "throughput", _BOTH, "sum", "mean", "throughput",
               per_second=True, fast=True, middleware="completed",
               description="requests completed per second"),
        Metric("keys_per_s", "keys/s", "keys per second", _BOTH, "sum", "mean", "keys_per_s",
               per_second=True, fast=True, middleware="keys",
               description="keys per second (requests x keys per request)"),
        Metric("misses_per_s", "keys/s", "misses per second", _BOTH, "sum", "mean",
               "misses_per_s", per_second=True, fast=True, middleware="misses",
               description="keys asked for and not found per second"),
        Metric("response_time_us", "us", "response time", _BOTH, "weighted", "mean",
               "response_time_us", per_second=True, fast=True, middleware="total_us_mean",
               description="mean time from a request to its reply"),
        Metric("p50_us", "us", "median response time", _BOTH, "weighted", "mean", "p50_us",
               per_second=True, fast=True, approximate=True, percentile=50.0,
               description="median response time (approximated from per-second medians)"),
        Metric("p90_us", "us", "90th percentile response time", _BOTH, "weighted", "mean",
               "p90_us", per_second=True, fast=True, approximate=True, percentile=90.0,
               description="90th percentile response time (approximated from per-second values)"),
        Metric("p99_us", "us", "99th percentile response time", _BOTH, "weighted", "mean",
               "p99_us", per_second=True, fast=True, approximate=True, percentile=99.0,
               description="99th percentile response time (approximated from per-second values)"),
        Metric("queue_time_us", "us", "queue time", _MW, "weighted", "mean", "queue_time_us",
               per_second=True, fast=True, middleware="queue_us_mean",
               description="mean time in the middleware's work queue (dequeue - enqueue)"),
        Metric("server_time_us", "us", "server time", _MW, "weighted", "mean",
               "server_time_us", per_second=True, fast=True, middleware="server_us_mean",
               description="mean time at the memcached servers (last reply - sent)"),
        Metric("processing_time_us", "us", "processing time", _MW, "weighted", "mean",
               "processing_time_us", per_second=True, fast=True,
               middleware="processing_us_mean",
               description="middleware time outside queue and servers (total - queue - server)"),
        Metric("queue_length", "requests", "queue length", _MW, "sum", "mean", "queue_length",
               per_second=True, fast=True, middleware="queue_length_mean",
               description="mean number of requests waiting in the middleware's work queue"),
        # The monitor's series (worker/parsers/monitor.py). CPU is in percent of one core,
        # summed over the host's CPUs as /proc/stat counts it (a busy 2-core host is 200 %;
        # host_cpus says how many cores); a run's instances add up (all hosts, interfaces or
        # processes of the run; namespace hosts share one kernel, so their CPU rows repeat).
        Metric("host_cpu_user_pct", "% of a core", "host CPU user (incl. nice)", _HOST, "sum",
               "mean", "host_cpu_user_pct", per_second=True, fast=True,
               description="host CPU in user mode (nice included), all cores summed"),
        Metric("host_cpu_system_pct", "% of a core", "host CPU system (incl. irq, softirq)",
               _HOST, "sum", "mean", "host_cpu_system_pct", per_second=True, fast=True,
               description="host CPU in system mode (irq, softirq included), all cores summed"),
        Metric("host_cpu_iowait_pct", "% of a core", "host CPU iowait", _HOST, "sum", "mean",
               "host_cpu_iowait_pct", per_second=True, fast=True,
               description="host CPU idle waiting for I/O, all cores summed"),
        Metric("host_cpu_steal_pct", "% of a core", "host CPU steal (taken by the hypervisor)",
               _HOST, "sum", "mean", "host_cpu_steal_pct", per_second=True, fast=True,
               description="host CPU taken by the hypervisor for other guests, all cores summed"),
        Metric("host_cpu_busy_pct", "% of a core", "host CPU busy (user + system)", _HOST,
               "sum", "mean", "host_cpu_busy_pct", per_second=True, fast=True,
               description="host CPU busy (user + system), all cores summed"),
        Metric("host_cpus", "cores", "host CPU cores", _HOST, "sum", "mean", "host_cpus",
               per_second=True, fast=True,
               description="CPU cores of the host"),
        Metric("host_mem_used_bytes", "bytes", "host memory used (total - available)", _HOST,
               "sum", "mean", "host_mem_used_bytes", per_second=True, fast=True,
               description="host memory in use (total - available)"),
        Metric("net_rx_bytes_per_s", "bytes/s", "bytes received", _NET, "sum", "mean",
               "net_rx_bytes_per_s", per_second=True, fast=True,
               description="bytes received per second on the interface"),
        Metric("net_tx_bytes_per_s", "bytes/s", "bytes sent", _NET, "sum", "mean",
               "net_tx_bytes_per_s", per_second=True, fast=True,
               description="bytes sent per second on the interface"),
        Metric("net_rx_packets_per_s", "packets/s", "packets received", _NET, "sum", "mean",
               "net_rx_packets_per_s", per_second=True, fast=True,
               description="packets received per second on the interface"),
        Metric("net_tx_packets_per_s", "packets/s", "packets sent", _NET, "sum", "mean",
               "net_tx_packets_per_s", per_second=True, fast=True,
               description="packets sent per second on the interface"),
        Metric("process_cpu_pct", "% of a core", "process CPU (user + system)", _PROC, "sum",
               "mean", "process_cpu_pct", per_second=True, fast=True,
               description="CPU of one process mcscope started (user + system)"),
        # Migration 0028: the middleware's reply bytes per request.
        Metric("reply_bytes", "bytes", "reply bytes per request", _MW, "weighted", "mean",
               "reply_bytes", per_second=True, fast=True, middleware="reply_bytes_mean",
               description="bytes of the middleware's reply per request"),
    )
}  # fmt: skip

if tuple(METRICS) != get_args(MetricName):  # pragma: no cover - a developer error at import
    raise RuntimeError("MetricName must list the METRICS entries in the same order")

METRIC_UNITS: dict[str, str] = {name: m.unit for name, m in METRICS.items()}
PER_SECOND: tuple[Metric, ...] = tuple(m for m in METRICS.values() if m.per_second)
FAST: tuple[Metric, ...] = tuple(m for m in METRICS.values() if m.fast)
PERCENTILE_COLUMNS: dict[str, float] = {
    m.column: m.percentile for m in METRICS.values() if m.percentile is not None
}
"""Column -> percentile of the latency percentile metrics (e.g. "p99_us" -> 99.0)."""
RESOURCE: tuple[Metric, ...] = tuple(
    m for m in METRICS.values() if set(m.sources) & {"host", "net", "process"}
)
"""The monitor's metrics: the series of host, interface and process sources."""
THROUGHPUT: Metric = METRICS["throughput_per_s"]
"""The weight of every `weighted` metric: completions per second."""
REQUEST: tuple[Metric, ...] = tuple(
    m for m in METRICS.values() if set(m.sources) & {"client", "middleware"}
)
"""The request metrics: what the load generators and middlewares measure (their summaries)."""
MIDDLEWARE_ONLY: tuple[Metric, ...] = tuple(m for m in REQUEST if "client" not in m.sources)
"""The request metrics only a middleware measures (queue, server, processing time, ...)."""
MIDDLEWARE_STATS: dict[str, Metric] = {
    m.middleware: m for m in METRICS.values() if m.middleware is not None
}
"""The middleware's stat name -> the metric read from it (e.g. "queue_us_mean" -> queue time)."""


def metric(name: str) -> Metric:
    """The table entry of `name` (KeyError for an unknown name)."""
    return METRICS[name]  # type: ignore[index]
