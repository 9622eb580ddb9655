"""The stable window and the rows a run's outputs become; one series' stable-window summary.

The stable window is [warmup_s, run_time_s - cooldown_s) seconds after the load generators
started. The window means are backend/results/aggregate.py's (rule 2: middleware series
shifted by their whole-second start offset, seconds without completions never poisoning a
mean), so a stored summary equals the same window re-cut from the stored series. The summary
columns are the metric table's request metrics (backend/domain/metrics.py `REQUEST`).
"""

import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from backend.domain.metrics import MIDDLEWARE_ONLY, REQUEST
from backend.domain.middleware_memory import MiddlewareMemory
from backend.domain.window import DesignWindow
from backend.results.aggregate import SourceSeries, SourceWindow, offset_s, source_window
from backend.results.aggregate import Window as ClockWindow

NAN = float("nan")

SUMMARY_COLUMNS: dict[str, str] = {m.name: m.column for m in REQUEST}
"""Metric name -> run_summaries column of the metrics a client or middleware summary holds."""


@dataclass(frozen=True)
class StableWindow:
    """Absolute unix bounds of the measured part of a run, plus its offsets in seconds."""

    load_start_unix: float
    start_s: int
    end_s: int

    @classmethod
    def after(cls, load_start_unix: float, design: DesignWindow) -> "StableWindow":
        """The design's window placed after the load generators started."""
        return cls(load_start_unix, design.start_s, design.end_s)

    @property
    def start_unix(self) -> float:
        return self.load_start_unix + self.start_s

    @property
    def end_unix(self) -> float:
        return self.load_start_unix + self.end_s


@dataclass
class ResultRows:
    """Column dicts for RunSeries, RunSummary, RunHistogram and RunWindowHistogram (run_id
    added on insert)."""

    series: list[dict[str, Any]] = field(default_factory=list)
    summaries: list[dict[str, Any]] = field(default_factory=list)
    histograms: list[dict[str, Any]] = field(default_factory=list)
    window_histograms: list[dict[str, Any]] = field(default_factory=list)
    # Errors each source's tool counted over the whole run (the quality flag reads them).
    tool_errors: dict[str, int] = field(default_factory=dict)
    # Each middleware's memory cap and what it did over the whole run (the memory_cap flag).
    memory: dict[str, MiddlewareMemory] = field(default_factory=dict)

    def extend(self, other: "ResultRows") -> None:
        self.series += other.series
        self.summaries += other.summaries
        self.histograms += other.histograms
        self.window_histograms += other.window_histograms
        self.tool_errors.update(other.tool_errors)
        self.memory.update(other.memory)


def _std(values: Iterable[float]) -> float | None:
    xs = [v for v in values if not math.isnan(v)]
    if len(xs) < 2:
        return None
    mean = sum(xs) / len(xs)
    return math.sqrt(sum((x - mean) ** 2 for x in xs) / (len(xs) - 1))


def window_summary(
    source: str, series: dict[str, Any], window: StableWindow
) -> dict[str, Any] | None:
    """The stored summary columns of one series over the stable window (None: not covered)."""
    if window.end_s <= window.start_s:
        return None
    values = {k: v for k, v in series.items() if isinstance(v, list)}
    shift = offset_s(series["start_unix"], window.load_start_unix)
    sw: SourceWindow | None = source_window(
        SourceSeries(source, series["start_unix"], values),
        shift,
        ClockWindow(window.start_s, window.end_s),
    )
    if sw is None:
        return None
    a = max(window.start_s - shift, 0)
    rt = series["response_time_us"][a : a + sw.seconds]
    tp = series["throughput"][a : a + sw.seconds]
    out: dict[str, Any] = {
        SUMMARY_COLUMNS[m]: (NAN if v is None else v) if m == "response_time_us" else v
        for m, v in sw.values.items()
        if m in SUMMARY_COLUMNS
    }
    return {
        **out,
        "count": int(round(sum(x for x in tp if not math.isnan(x)))),
        "weight": sw.weights["response_time_us"],
        "response_time_std_us": _std(rt),
    }


MIDDLEWARE_ONLY_COLUMNS: tuple[str, ...] = tuple(m.column for m in MIDDLEWARE_ONLY)
"""Summary columns a client summary leaves out (only a middleware measures them)."""
