"""Per-second series of one run: instances placed on one clock and combined per second.

Combination follows the reports: throughput is summed over instances, response time is the
throughput-weighted mean. Middleware windows start at their own unix time, so every instance
is shifted to the load generators' clock (rounded to whole seconds) before combining.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass


@dataclass(frozen=True)
class InstanceSeries:
    """One source instance (e.g. "client:0"); element i covers [start_unix + i, +1)."""

    source: str
    start_unix: float
    throughput: list[float]
    response_time_us: list[float]
    queue_time_us: list[float] | None = None
    server_time_us: list[float] | None = None
    queue_length: list[float] | None = None


@dataclass(frozen=True)
class CombinedSeries:
    """All instances per second; response time is None where no request completed."""

    time_s: list[float]
    throughput: list[float]
    response_time_us: list[float | None]


def offset_s(instance: InstanceSeries, t0_unix: float) -> float:
    """Start of an instance in seconds after t0 (the load generators' second 0)."""
    return instance.start_unix - t0_unix


def combine_instances(instances: list[InstanceSeries], t0_unix: float) -> CombinedSeries:
    """Sum throughput and weight response time by throughput, second by second.

    A second covered by only some instances combines those (instances may differ in length).
    """
    tp: dict[int, float] = defaultdict(float)
    weighted: dict[int, float] = defaultdict(float)
    for inst in instances:
        shift = round(offset_s(inst, t0_unix))
        for i, (x, r) in enumerate(zip(inst.throughput, inst.response_time_us, strict=False)):
            tp[shift + i] += x
            weighted[shift + i] += x * r
    seconds = sorted(tp)
    return CombinedSeries(
        time_s=[float(t) for t in seconds],
        throughput=[tp[t] for t in seconds],
        response_time_us=[weighted[t] / tp[t] if tp[t] > 0 else None for t in seconds],
    )
