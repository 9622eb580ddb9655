"""The live line of a run: all its client instances combined per second.

Each load generator reports its own progress; publishing them one by one made the live line
zig-zag between instances and show one instance's throughput. This combiner emits second s
once every instance still running has reported it, with the instances combined by
backend/results/aggregate.py's rules (throughput summed, response time weighted by
throughput, seconds without a time left out). An instance that skipped second s (memtier's
elapsed seconds may skip) counts with its latest report before it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from backend.results.aggregate import SourceSeries, combine_per_second
from worker.parsers.progress import ProgressTick


@dataclass(frozen=True)
class LiveTotal:
    """One second of a run, all instances combined."""

    elapsed_s: int
    ops_per_sec: float
    mean_latency_us: float | None
    instances: int


@dataclass
class LiveCombiner:
    """Feed each instance's ticks; get the run's combined seconds as they complete."""

    sources: tuple[str, ...]
    _ticks: dict[str, dict[int, ProgressTick]] = field(default_factory=dict)
    _ended: set[str] = field(default_factory=set)
    _next: int = 0

    def add(self, source: str, tick: ProgressTick) -> list[LiveTotal]:
        """Record one tick (a repeated second replaces the earlier report)."""
        self._ticks.setdefault(source, {})[tick.elapsed_s] = tick
        return self._ready()

    def end(self, source: str) -> list[LiveTotal]:
        """An instance exited: it no longer holds the line back."""
        self._ended.add(source)
        return self._ready()

    def _latest(self, source: str) -> int:
        ticks = self._ticks.get(source)
        return max(ticks) if ticks else -1

    def _ready(self) -> list[LiveTotal]:
        running = [s for s in self.sources if s not in self._ended]
        reported = [self._latest(s) for s in self.sources]
        upto = min((self._latest(s) for s in running), default=max(reported, default=-1))
        out = []
        while self._next <= upto:
            total = self._combine(self._next)
            if total is not None:
                out.append(total)
            self._next += 1
        return out

    def _combine(self, second: int) -> LiveTotal | None:
        series = []
        for source in self.sources:
            before = [s for s in self._ticks.get(source, {}) if s <= second]
            if not before:
                continue
            tick = self._ticks[source][max(before)]
            latency = math.nan if tick.mean_latency_us is None else tick.mean_latency_us
            series.append(
                SourceSeries(
                    source,
                    float(second),
                    {"throughput": [tick.ops_per_sec], "response_time_us": [latency]},
                )
            )
        if not series:
            return None
        combined = combine_per_second(series, float(second))
        return LiveTotal(second, combined.throughput[0], combined.response_time_us[0], len(series))
