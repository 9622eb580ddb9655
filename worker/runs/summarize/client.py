"""A load generator's outputs as rows: its per-second series and stable-window summaries."""

import math
from collections.abc import Sequence

from backend.domain.metrics import PERCENTILE_COLUMNS
from backend.models import HistogramMetric, RequestType
from worker.parsers import ClientResult
from worker.parsers.model import SecondSample
from worker.runs.summarize.histograms import histogram_row
from worker.runs.summarize.window import (
    MIDDLEWARE_ONLY_COLUMNS,
    NAN,
    ResultRows,
    StableWindow,
    window_summary,
)


def client_rows(
    source: str,
    result: ClientResult,
    window: StableWindow,
    multiget: bool,
    start_unix: float | None = None,
) -> ResultRows:
    """Rows of one load generator instance; its second 0 starts at start_unix (its own start;
    default the run's, window.load_start_unix), so instances started apart line up."""
    start = window.load_start_unix if start_unix is None else start_unix
    rows = ResultRows()
    for kind, typed in result.types.items():
        rtype = RequestType(kind)
        if kind == "get" and multiget:
            rtype = RequestType.MULTIGET
        length = max((s.second for s in typed.series), default=-1) + 1
        tp, rt, keys, misses = [0.0] * length, [NAN] * length, [0.0] * length, [0.0] * length
        for s in typed.series:
            if s.second < 0:
                continue
            tp[s.second] = s.ops_per_sec
            rt[s.second] = NAN if s.mean_latency_us is None else s.mean_latency_us
            keys[s.second] = s.ops_per_sec if s.keys_per_sec is None else s.keys_per_sec
            misses[s.second] = s.misses_per_sec or 0.0
        rows.series.append(
            {
                "source": source,
                "request_type": rtype,
                "start_unix": start,
                "throughput": tp,
                "response_time_us": rt,
                "keys_per_s": keys,
                "misses_per_s": misses,
                **_percentile_series(typed.series, length),
            }
        )
        series = rows.series[-1]
        windowed = window_summary(source, series, window)
        if windowed is not None:
            summary = {k: v for k, v in windowed.items() if k not in MIDDLEWARE_ONLY_COLUMNS}
        else:  # no per-second series: whole-run figures are all there is
            whole = typed.summary
            summary = {
                "count": whole.count,
                "throughput": whole.ops_per_sec,
                "keys_per_s": whole.keys_per_sec,
                "misses_per_s": whole.misses_per_sec,
                "response_time_us": NAN if whole.mean_latency_us is None else whole.mean_latency_us,
                "response_time_std_us": None,
                "weight": None,
            }
            # The tool's whole-run percentiles belong with whole-run figures only.
            summary.update({c: typed.percentiles.get(q) for c, q in PERCENTILE_COLUMNS.items()})
        rows.summaries.append(
            {
                "source": source,
                "request_type": rtype,
                "window_start_s": window.start_s,
                "window_end_s": window.end_s,
                **summary,
            }
        )
        hist_row = histogram_row(source, rtype, HistogramMetric.CLIENT, typed.histogram)
        if hist_row:
            rows.histograms.append(hist_row)
    return rows


def _percentile_series(
    seconds: Sequence[SecondSample], length: int
) -> dict[str, list[float] | None]:
    """Per-second percentile arrays from the tool's per-second percentiles (NaN for a second
    without them); None for a column the tool never reports, so the source lacks the metric."""
    out: dict[str, list[float] | None] = {}
    for column, q in PERCENTILE_COLUMNS.items():
        values = [NAN] * length
        for s in seconds:
            if s.second >= 0 and q in s.percentiles_us:
                values[s.second] = s.percentiles_us[q]
        out[column] = values if any(not math.isnan(v) for v in values) else None
    return out
