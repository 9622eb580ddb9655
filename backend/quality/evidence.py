"""A run's evidence for the quality rules, built from the per-second series the results use.

Ingest (worker.runs.quality) and a re-cut window (backend.quality.service) both build it
here from `SourceSeries`, with the results core's rules 1-3 (backend.results.aggregate), so
a flag reads the same numbers the results table shows.
"""

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from backend.domain.metrics import PER_SECOND, MetricName
from backend.domain.middleware_memory import MiddlewareMemory
from backend.results.aggregate import (
    SourceSeries,
    Window,
    clock_start,
    combine_per_second,
    combine_run,
    offset_s,
    source_window,
)

# The per-host per-second CPU steal (percent) machine monitoring stores, when it does.
STEAL_COLUMN = "host_cpu_steal_pct"
MEANS: tuple[MetricName, ...] = (
    "throughput_per_s",
    "response_time_us",
    "keys_per_s",
    "misses_per_s",
)


@dataclass(frozen=True)
class RunEvidence:
    """What the run rules read, over one window of the run's clock.

    throughput: the load generators' total per second over the window's covered seconds;
    client / middleware: window means with instances combined (None: no such source);
    clients: closed-loop clients N; tool_errors: per source, errors the tools reported over
    the whole run (None: not read); steal_pct: per host, CPU steal per second over the window
    (None: not measured); memory: per middleware source, its memory bound over the whole run
    (None: not read).
    """

    window: Window
    throughput: list[float]
    client: Mapping[str, float | None] | None
    middleware: Mapping[str, float | None] | None
    clients: int | None
    expects_no_misses: bool
    tool_errors: Mapping[str, int] | None = None
    steal_pct: Mapping[str, list[float]] | None = None
    memory: Mapping[str, MiddlewareMemory] | None = None


def _means(series: Sequence[SourceSeries], t0: float, window: Window) -> dict[str, float | None]:
    ws = [source_window(s, offset_s(s.start_unix, t0), window, PER_SECOND) for s in series]
    kept = [w for w in ws if w is not None]
    return combine_run(kept, MEANS) if kept else {}


def _steal(series: Sequence[SourceSeries], t0: float, window: Window) -> dict[str, list[float]]:
    out: dict[str, list[float]] = {}
    for s in series:
        values = s.values.get(STEAL_COLUMN)
        if values is None:
            continue
        shift = offset_s(s.start_unix, t0)
        a, b = max(window.start_s - shift, 0), max(window.end_s - shift, 0)
        picked = [float(v) for v in list(values)[a:b] if math.isfinite(v)]
        if picked:
            out[s.source.removeprefix("host:")] = picked
    return out


def evidence_from_series(
    series: Sequence[SourceSeries],
    window: Window,
    *,
    clients: int | None,
    expects_no_misses: bool,
    tool_errors: Mapping[str, int] | None = None,
    memory: Mapping[str, MiddlewareMemory] | None = None,
) -> RunEvidence:
    """The evidence of one run (all its sources, request type "all") over `window`."""
    t0 = clock_start(series) or 0.0
    client = [s for s in series if s.source.startswith("client:")]
    middleware = [s for s in series if s.source.startswith("middleware:")]
    per_second = combine_per_second(client, t0)
    tp = [
        x
        for t, x in zip(per_second.time_s, per_second.throughput, strict=True)
        if window.start_s <= t < window.end_s
    ]
    steal = _steal(series, t0, window)
    return RunEvidence(
        window=window,
        throughput=tp,
        client=_means(client, t0, window) or None,
        middleware=_means(middleware, t0, window) or None,
        clients=clients,
        expects_no_misses=expects_no_misses,
        tool_errors=tool_errors,
        steal_pct=steal or None,
        memory=memory,
    )
