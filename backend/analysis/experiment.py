"""Glue from stored per-source summaries to analysis inputs (pure: plain rows in, rows out).

Within a run, client instances (or middlewares) are combined as the reports do: throughput
and keys/s are summed, times are throughput-weighted means, queue lengths are summed.
Percentiles of several instances cannot be combined exactly; their throughput-weighted mean
is an approximation (exact with one instance; use the merged histograms otherwise).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import Any, Literal

from backend.analysis.errors import AnalysisError

Metric = Literal[
    "throughput_per_s",
    "keys_per_s",
    "response_time_us",
    "p50_us",
    "p90_us",
    "p99_us",
    "queue_time_us",
    "server_time_us",
    "processing_time_us",
    "queue_length",
]
METRIC_UNITS: dict[str, str] = {
    "throughput_per_s": "ops/s",
    "keys_per_s": "keys/s",
    "response_time_us": "us",
    "p50_us": "us",
    "p90_us": "us",
    "p99_us": "us",
    "queue_time_us": "us",
    "server_time_us": "us",
    "processing_time_us": "us",
    "queue_length": "requests",
}
_WEIGHTED = (
    "response_time_us",
    "p50_us",
    "p90_us",
    "p99_us",
    "queue_time_us",
    "server_time_us",
    "processing_time_us",
)


@dataclass(frozen=True)
class SourceRow:
    """One stored summary: a run x source (e.g. "client:0") over the stable window."""

    run_id: int
    configuration_id: int
    repetition: int
    source: str
    throughput_per_s: float
    keys_per_s: float | None
    response_time_us: float
    p50_us: float | None
    p90_us: float | None
    p99_us: float | None
    queue_time_us: float | None
    server_time_us: float | None
    processing_time_us: float | None
    queue_length: float | None


@dataclass(frozen=True)
class RunMetrics:
    """All sources of one run combined; None when no source reported the metric."""

    run_id: int
    configuration_id: int
    repetition: int
    values: dict[str, float | None]


def combine_sources(rows: list[SourceRow]) -> list[RunMetrics]:
    """Combine the sources of each run (see the module docstring for the rules)."""
    by_run: dict[int, list[SourceRow]] = defaultdict(list)
    for row in rows:
        by_run[row.run_id].append(row)
    out = []
    for run_id, group in sorted(by_run.items()):
        total = sum(r.throughput_per_s for r in group)
        values: dict[str, float | None] = {"throughput_per_s": total}
        keys = [r.keys_per_s for r in group]
        values["keys_per_s"] = sum(k for k in keys if k is not None) if None not in keys else None
        for name in _WEIGHTED:
            pairs = [(getattr(r, name), r.throughput_per_s) for r in group]
            known = [(v, w) for v, w in pairs if v is not None]
            weight = sum(w for _, w in known)
            values[name] = sum(v * w for v, w in known) / weight if known and weight > 0 else None
        lengths = [r.queue_length for r in group if r.queue_length is not None]
        values["queue_length"] = sum(lengths) if lengths else None
        first = group[0]
        out.append(RunMetrics(run_id, first.configuration_id, first.repetition, values))
    return out


def by_configuration(runs: list[RunMetrics], metric: str) -> dict[int, list[float]]:
    """Per configuration id, the metric of each repetition that reported it."""
    out: dict[int, list[float]] = defaultdict(list)
    for run in sorted(runs, key=lambda r: (r.configuration_id, r.repetition)):
        value = run.values.get(metric)
        if value is not None:
            out[run.configuration_id].append(value)
    return out


def total_clients(params: dict[str, Any]) -> int:
    """Virtual clients of a configuration: machines x instances x threads x clients/thread."""
    try:
        return int(
            params["client_machines"]
            * params["instances_per_machine"]
            * params["threads_per_instance"]
            * params["clients_per_thread"]
        )
    except KeyError as err:
        raise AnalysisError("configuration", f"missing parameter {err.args[0]!r}") from err


def write_fraction(ratio: str) -> float:
    """SET share of a "SET:GET" ratio string."""
    try:
        sets, gets = (float(x) for x in ratio.split(":"))
    except ValueError as err:
        raise AnalysisError("ratio", f"not a SET:GET ratio: {ratio!r}") from err
    if sets + gets <= 0:
        raise AnalysisError("ratio", "SET + GET must be positive")
    return sets / (sets + gets)
