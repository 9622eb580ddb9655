"""Per-window histogram rows of a middleware: a request type without values in a window (an
empty sparse count list, as every set-only or get-only run has) is summed without error."""

import numpy as np

from backend.models import HistogramMetric, RequestType
from worker.parsers.middleware import HIST_KINDS
from worker.parsers.model import (
    MIDDLEWARE_TYPES,
    MiddlewareWindowHistograms,
    SparseCounts,
    WindowHistograms,
)
from worker.runs.summarize import window_histogram_rows


def _window(i: int, get_counts: tuple[int, ...]) -> WindowHistograms:
    empty = {name: SparseCounts(0, ()) for name in HIST_KINDS}
    types = {kind: empty for kind in MIDDLEWARE_TYPES}
    types["get"] = {name: SparseCounts(3, get_counts) for name in HIST_KINDS}
    return WindowHistograms(i, types)


def test_empty_kinds_are_summed_into_all() -> None:
    hists = MiddlewareWindowHistograms(8, 40, (_window(0, (1, 2)), _window(1, (0, 5))))
    rows = window_histogram_rows("middleware:0", 100.0, hists, RequestType.ALL, MIDDLEWARE_TYPES)
    assert {r["metric"] for r in rows} == {HistogramMetric(n) for n in HIST_KINDS}
    row = rows[0]
    assert (row["first_bucket"], row["width"], row["windows"]) == (3, 2, 2)
    # Small counts are stored as int32 (4 bytes per count).
    assert len(row["cum"]) == 2 * 2 * 4
    cum = np.frombuffer(row["cum"], dtype="<i4").reshape(2, 2)
    assert cum.tolist() == [[1, 2], [1, 7]]  # cumulative over windows
