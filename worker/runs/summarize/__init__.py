"""Pure conversion of parsed outputs into result rows: per-second series and stable-window means.

window: the stable window, the rows, one series' window summary (the metric table's columns);
client: a load generator's rows; middleware: a middleware's rows (its stats read by the
metric table's middleware stat names); histograms: histogram rows and per-window encoding.
"""

from worker.runs.summarize.client import client_rows
from worker.runs.summarize.histograms import histogram_row, window_histogram_rows
from worker.runs.summarize.middleware import (
    middleware_rows,
    sample_percentiles,
    window_percentiles,
)
from worker.runs.summarize.window import ResultRows, StableWindow, window_summary

__all__ = [
    "ResultRows",
    "StableWindow",
    "client_rows",
    "histogram_row",
    "middleware_rows",
    "sample_percentiles",
    "window_histogram_rows",
    "window_percentiles",
    "window_summary",
]
